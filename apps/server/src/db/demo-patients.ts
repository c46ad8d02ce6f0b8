import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from './client';
import { projects, tenants } from './schema';

/*
 * The demo patients of HF-REG (synthetic people) and the demo project's look-up, shared by the demo seeds of the
 * patient, form-record and follow-up modules (so none of them imports another's seed).
 */

/** A GB 11643 identity number from its first 17 digits (the check character computed). */
export function withCheck(first17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((acc, d, i) => acc + Number(d) * (w[i] ?? 0), 0);
  return first17 + '10X98765432'.charAt(sum % 11);
}

export type DemoPatient = {
  center: 'C01' | 'C02';
  /** In the HFpEF sub-project's cohort. */
  sub?: boolean;
  name: string;
  id17: string;
  phone: string;
  hospitalNo: string;
  enrolDate: string;
  status: 'screening' | 'enrolled' | 'withdrawn' | 'completed' | 'deceased';
};

/** Synthetic people: the identity numbers are well-formed but invented (region, birth date, sequence). */
export const DEMO_PATIENTS: DemoPatient[] = [
  {
    center: 'C01',
    name: '王建国',
    id17: '11010519580314201',
    phone: '13801010001',
    hospitalNo: 'ZY2026001',
    enrolDate: '2026-01-08',
    status: 'enrolled',
  },
  {
    center: 'C01',
    name: '李秀英',
    id17: '11010819620721102',
    phone: '13901010002',
    hospitalNo: 'ZY2026002',
    enrolDate: '2026-01-15',
    status: 'enrolled',
  },
  {
    center: 'C01',
    sub: true,
    name: '欧阳明华',
    id17: '31010419550902303',
    phone: '13701010003',
    hospitalNo: 'ZY2026003',
    enrolDate: '2026-02-03',
    status: 'enrolled',
  },
  {
    center: 'C01',
    name: '张桂兰',
    id17: '11010219490130004',
    phone: '13601010004',
    hospitalNo: 'ZY2026004',
    enrolDate: '2026-02-20',
    status: 'deceased',
  },
  {
    center: 'C01',
    name: '陈志强',
    id17: '11010619700415005',
    phone: '15001010005',
    hospitalNo: 'ZY2026005',
    enrolDate: '2026-03-11',
    status: 'screening',
  },
  {
    center: 'C02',
    name: '刘淑珍',
    id17: '44010619600612106',
    phone: '13802020006',
    hospitalNo: 'B20260101',
    enrolDate: '2026-01-22',
    status: 'enrolled',
  },
  {
    center: 'C02',
    sub: true,
    name: '赵德明',
    id17: '44010319530227207',
    phone: '18602020007',
    hospitalNo: 'B20260102',
    enrolDate: '2026-02-14',
    status: 'completed',
  },
  {
    center: 'C02',
    name: '孙丽',
    id17: '44010419781108308',
    phone: '17702020008',
    hospitalNo: 'B20260103',
    enrolDate: '2026-03-02',
    status: 'withdrawn',
  },
];

/**
 * The identity values of each demo patient by patient number (what `seedDemoPatients` stores, in clear): the demo
 * records' bound fields take them, so the CRF and the patient agree from the start.
 */
export function demoPatientIdentities(): Map<
  string,
  { name: string; gender: string; birthDate: string; idNumber: string; phone: string; hospitalNo: string }
> {
  return new Map(
    DEMO_PATIENTS.map((p, i) => {
      const idNumber = withCheck(p.id17);
      return [
        `${p.center}-${String(i + 1).padStart(4, '0')}`,
        {
          name: p.name,
          gender: Number(idNumber[16]) % 2 === 1 ? '1' : '2',
          birthDate: `${idNumber.slice(6, 10)}-${idNumber.slice(10, 12)}-${idNumber.slice(12, 14)}`,
          idNumber,
          phone: p.phone,
          hospitalNo: p.hospitalNo,
        },
      ];
    }),
  );
}

/** The demo project 心力衰竭注册登记研究 (HF-REG of tenant h001), or undefined without the demo data. */
export async function findDemoProject(db: Db): Promise<{ id: string; tenantId: string } | undefined> {
  const [hf] = await db
    .select({ id: projects.id, tenantId: projects.tenantId })
    .from(projects)
    .innerJoin(tenants, eq(tenants.id, projects.tenantId))
    .where(and(eq(tenants.code, 'h001'), eq(projects.code, 'HF-REG'), isNull(projects.parentId)))
    .limit(1);
  return hf;
}
