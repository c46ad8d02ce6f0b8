import {
  BENCH_COMORBIDITY_OPTIONS,
  BENCH_FORM_KEYS,
  BENCH_INSURANCE_OPTIONS,
  BENCH_LAB_ITEMS,
} from './bench-definition';

/**
 * Synthetic but realistic people and CRF data for the benchmark project: pure functions of a seeded random source, so
 * a run is reproducible. Nothing here touches the database.
 */

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

const int = (rnd: Random, min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));
const pick = <T>(rnd: Random, items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
const round = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};
/** An approximately normal value (sum of three uniforms), clamped. */
const normal = (rnd: Random, mean: number, sd: number, min: number, max: number) => {
  const z = (rnd() + rnd() + rnd() - 1.5) * 2;
  return Math.min(max, Math.max(min, mean + z * sd));
};

// The most common surnames of China's population, roughly in order of frequency (weights fall along the list).
const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '高',
  '林',
  '罗',
  '郑',
  '梁',
  '谢',
  '宋',
  '唐',
  '许',
  '韩',
  '冯',
  '邓',
  '曹',
  '彭',
  '曾',
  '肖',
  '田',
  '董',
  '袁',
  '潘',
  '于',
  '蒋',
  '蔡',
  '余',
  '杜',
  '叶',
  '程',
  '苏',
  '魏',
  '吕',
  '丁',
  '任',
  '沈',
  '姚',
  '卢',
  '姜',
  '崔',
  '钟',
  '谭',
  '陆',
  '汪',
  '范',
  '金',
  '石',
  '廖',
  '贾',
  '夏',
  '韦',
  '付',
  '方',
  '白',
  '邹',
  '孟',
  '熊',
  '秦',
  '邱',
  '江',
  '尹',
  '薛',
  '闫',
  '段',
  '雷',
  '侯',
  '欧阳',
  '司马',
  '上官',
  '诸葛',
];
const MALE_CHARS = [...'伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林欣阳建国志文立新海峰德胜永利庆东亮'];
const FEMALE_CHARS = [...'芳娜敏静丽艳娟霞秀英玲桂兰萍红梅琳燕雪慧颖倩婷洁琴云莲真环月凤素珍玉翠荣淑华春晓佳悦'];

/** A Chinese full name: a surname and one or two given-name characters typical of the gender. */
export function chineseName(rnd: Random, gender: '1' | '2'): string {
  // Skewed towards the top of the list, like the real distribution.
  const surname = SURNAMES[Math.floor(rnd() ** 2 * SURNAMES.length)] ?? '王';
  const chars = gender === '1' ? MALE_CHARS : FEMALE_CHARS;
  const given = rnd() < 0.35 ? pick(rnd, chars) : pick(rnd, chars) + pick(rnd, chars);
  return surname + given;
}

/** County-level division codes (GB/T 2260) of each center's city, and a few elsewhere (patients travel). */
export const BENCH_CENTERS = [
  {
    code: 'C01',
    name: '北京市第一人民医院',
    city: '北京',
    share: 0.3,
    regions: ['110101', '110102', '110105', '110106', '110108'],
  },
  {
    code: 'C02',
    name: '上海市第六人民医院',
    city: '上海',
    share: 0.24,
    regions: ['310101', '310104', '310105', '310106', '310112'],
  },
  {
    code: 'C03',
    name: '广州市第一人民医院',
    city: '广州',
    share: 0.2,
    regions: ['440103', '440104', '440105', '440106', '440111'],
  },
  {
    code: 'C04',
    name: '成都市第二人民医院',
    city: '成都',
    share: 0.15,
    regions: ['510104', '510105', '510106', '510107', '510108'],
  },
  {
    code: 'C05',
    name: '武汉市中心医院',
    city: '武汉',
    share: 0.11,
    regions: ['420102', '420103', '420104', '420106', '420111'],
  },
] as const;
const ELSEWHERE = ['130102', '320102', '330106', '370102', '410105', '430102', '500103', '610113', '210102', '350102'];

const STREETS = ['人民路', '解放路', '中山路', '建设路', '和平路', '新华路', '长江路', '文化路', '胜利路', '青年路'];

/** GB 11643-1999: the check character of the first 17 digits. */
export function idNumberCheck(first17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (w[i] ?? 0);
  return '10X98765432'.charAt(sum % 11);
}

const DAY_MS = 86_400_000;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

export const PATIENT_STATUS_WEIGHTS = [
  ['enrolled', 0.6],
  ['completed', 0.2],
  ['withdrawn', 0.09],
  ['screening', 0.06],
  ['deceased', 0.05],
] as const;
export type BenchPatientStatus = (typeof PATIENT_STATUS_WEIGHTS)[number][0];

export type BenchPerson = {
  centerIndex: number;
  name: string;
  gender: '1' | '2';
  birthDate: string;
  /** Without its sequence digits: the caller adds them (and retries on a duplicate). */
  idRegion: string;
  phone: string;
  enrolDate: string;
  status: BenchPatientStatus;
  address: string;
};

/** Enrolment dates run from `from` to `to` in patient-number order (with a few days' jitter), as a registry grows. */
export function benchPerson(
  rnd: Random,
  position: number,
  of: number,
  window: { from: string; to: string },
): BenchPerson {
  let u = rnd();
  let centerIndex = 0;
  for (; centerIndex < BENCH_CENTERS.length - 1; centerIndex++) {
    u -= BENCH_CENTERS[centerIndex]?.share ?? 0;
    if (u < 0) break;
  }
  const center = BENCH_CENTERS[centerIndex] ?? BENCH_CENTERS[0];
  const gender: '1' | '2' = rnd() < 0.55 ? '1' : '2';
  const from = dayMs(window.from);
  const to = dayMs(window.to);
  const at = from + ((to - from) * (position + rnd())) / Math.max(1, of);
  const enrolMs = Math.min(to, Math.max(from, at + Math.round((rnd() - 0.5) * 6) * DAY_MS));
  const enrolDate = isoDay(enrolMs);
  // Ages 18–95 at enrolment, centred on the late sixties (heart failure).
  const age = normal(rnd, 66, 12, 18, 95);
  const birthDate = isoDay(enrolMs - Math.round(age * 365.25) * DAY_MS);
  let s = rnd();
  let status: BenchPatientStatus = 'enrolled';
  for (const [code, weight] of PATIENT_STATUS_WEIGHTS) {
    s -= weight;
    if (s < 0) {
      status = code;
      break;
    }
  }
  const idRegion = rnd() < 0.85 ? pick(rnd, center.regions) : pick(rnd, ELSEWHERE);
  const phone = `1${pick(rnd, ['3', '5', '7', '8', '9'])}${String(int(rnd, 0, 999_999_999)).padStart(9, '0')}`;
  const address = `${center.city}市${pick(rnd, STREETS)}${int(rnd, 1, 999)}号${int(rnd, 1, 30)}栋${int(rnd, 101, 2804)}室`;
  return {
    centerIndex,
    name: chineseName(rnd, gender),
    gender,
    birthDate,
    idRegion,
    phone,
    enrolDate,
    status,
    address,
  };
}

/** A GB 11643 identity number: region, birth date, a 3-digit sequence whose parity is the gender, check character. */
export function identityNumber(person: Pick<BenchPerson, 'idRegion' | 'birthDate' | 'gender'>, rnd: Random): string {
  const seq = int(rnd, 0, 499) * 2 + (person.gender === '1' ? 1 : 0);
  const first17 = `${person.idRegion}${person.birthDate.replace(/-/g, '')}${String(seq).padStart(3, '0')}`;
  return first17 + idNumberCheck(first17);
}

export type BenchRecord = {
  formKey: string;
  instance: number;
  /** The day the record was entered. */
  date: string;
  status: 'draft' | 'submitted' | 'verified';
  data: Record<string, unknown>;
};

const recordStatus = (rnd: Random): BenchRecord['status'] => {
  const u = rnd();
  return u < 0.15 ? 'draft' : u < 0.75 ? 'submitted' : 'verified';
};

/**
 * The CRF records of one patient, as the engine stores them (calculations computed, hidden fields absent, decimals at
 * their precision). Screening patients have demographics and vitals only; enrolled ones all baseline forms and one
 * follow-up a year since enrolment (up to 5), the last one recording a death for a deceased patient.
 */
export function benchRecords(rnd: Random, person: BenchPerson, today: string): BenchRecord[] {
  const enrol = dayMs(person.enrolDate);
  const last = dayMs(today);
  const at = (days: number) => isoDay(Math.min(last, enrol + days * DAY_MS));
  const out: BenchRecord[] = [];
  const maybe = <T>(p: number, value: () => T): T | undefined => (rnd() < p ? value() : undefined);
  const clean = (data: Record<string, unknown>) => {
    for (const k of Object.keys(data)) if (data[k] === undefined) delete data[k];
    return data;
  };

  out.push({
    formKey: BENCH_FORM_KEYS.demographics,
    instance: 1,
    date: at(0),
    status: recordStatus(rnd),
    data: clean({
      dm_name: person.name,
      dm_gender: person.gender,
      dm_birth_date: person.birthDate,
      dm_education: String(int(rnd, 1, 4)),
      dm_marital: rnd() < 0.8 ? '2' : String(pick(rnd, [1, 3, 4])),
      dm_occupation: rnd() < 0.1 ? 'UNK' : pick(rnd, ['退休', '工人', '农民', '教师', '职员', '个体经营', '医务人员']),
      dm_insurance: pick(
        rnd,
        BENCH_INSURANCE_OPTIONS.map((o) => o.code),
      ),
      dm_address: maybe(0.8, () => person.address),
    }),
  });

  const male = person.gender === '1';
  const height = round(normal(rnd, male ? 169 : 158, 6, 140, 195), 1);
  const weight = round(normal(rnd, male ? 70 : 60, 10, 38, 130), 1);
  const sbp = Math.round(normal(rnd, 132, 18, 85, 210));
  const dbp = Math.min(sbp - 20, Math.round(normal(rnd, 80, 10, 45, 120)));
  out.push({
    formKey: BENCH_FORM_KEYS.vitals,
    instance: 1,
    date: at(0),
    status: recordStatus(rnd),
    data: clean({
      vs_date: at(0),
      vs_height: height,
      vs_weight: weight,
      vs_bmi: round(weight / (height / 100) ** 2, 1),
      vs_sbp: sbp,
      vs_dbp: dbp,
      vs_heart_rate: maybe(0.95, () => Math.round(normal(rnd, 78, 12, 40, 150))),
      vs_temperature: rnd() < 0.05 ? 'ND' : round(normal(rnd, 36.6, 0.3, 35.5, 39), 1),
    }),
  });
  if (person.status === 'screening') return out;

  const smoking = pick(rnd, ['1', '0', '0', '9']);
  const comorbid = BENCH_COMORBIDITY_OPTIONS.filter(() => rnd() < 0.3).map((o) => o.code);
  const onsetYear = Number(person.enrolDate.slice(0, 4)) - int(rnd, 0, 8);
  out.push({
    formKey: BENCH_FORM_KEYS.history,
    instance: 1,
    date: at(1),
    status: recordStatus(rnd),
    data: clean({
      mh_diagnosis: pick(rnd, ['hfref', 'hfref', 'hfmref', 'hfpef', 'hfpef']),
      mh_onset: rnd() < 0.5 ? String(onsetYear) : `${onsetYear}-${String(int(rnd, 1, 12)).padStart(2, '0')}`,
      mh_smoking: smoking,
      mh_smoking_years: smoking === '1' ? int(rnd, 1, 50) : undefined,
      mh_drinking: rnd() < 0.3 ? '1' : '0',
      mh_comorbidities: comorbid.length > 0 ? comorbid : undefined,
      mh_family_history: maybe(0.9, () => (rnd() < 0.15 ? '1' : '0')),
      mh_nyha: String(int(rnd, 1, 4)),
    }),
  });

  const rows = BENCH_LAB_ITEMS.filter(() => rnd() < 0.55).map((item) => {
    const value = round(item.low + rnd() * (item.high - item.low) * 1.1, 2);
    return clean({
      lb_item: item.code,
      lb_value: value,
      lb_unit: item.unit,
      lb_abnormal: value > item.high ? '1' : maybe(0.7, () => '0'),
    });
  });
  out.push({
    formKey: BENCH_FORM_KEYS.labs,
    instance: 1,
    date: at(1),
    status: recordStatus(rnd),
    data: clean({
      lb_date: at(1),
      lb_nt_probnp: rnd() < 0.08 ? 'ND' : round(Math.exp(normal(rnd, 7, 1.2, 3, 11)), 1),
      lb_creatinine: round(normal(rnd, 95, 30, 30, 600), 1),
      lb_rows: rows.length > 0 ? rows : undefined,
    }),
  });

  const years = Math.floor((last - enrol) / (365.25 * DAY_MS));
  const visits = Math.min(5, years);
  const lost = person.status === 'withdrawn' && visits > 0;
  for (let v = 1; v <= visits; v++) {
    const date = at(v * 365 + int(rnd, -20, 20));
    const isLast = v === visits;
    const vital = isLast && person.status === 'deceased' ? '2' : isLast && lost ? '3' : '1';
    out.push({
      formKey: BENCH_FORM_KEYS.followUp,
      instance: v,
      date,
      status: recordStatus(rnd),
      data: clean({
        fu_date: date,
        fu_vital_status: vital,
        fu_death_date: vital === '2' ? isoDay(dayMs(date) - int(rnd, 1, 90) * DAY_MS) : undefined,
        fu_readmission: vital === '1' ? (rnd() < 0.2 ? '1' : '0') : undefined,
        fu_nyha: vital === '1' ? String(int(rnd, 1, 4)) : undefined,
        fu_sbp: vital === '1' ? Math.round(normal(rnd, 128, 16, 85, 210)) : undefined,
        fu_weight: vital === '1' ? round(weight + normal(rnd, 0, 3, -15, 15), 1) : undefined,
        fu_notes: maybe(0.2, () => pick(rnd, ['电话随访', '门诊复查', '患者一般情况良好', '家属代述'])),
      }),
    });
  }
  return out;
}
