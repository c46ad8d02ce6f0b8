import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { centers, patients, projects, users } from '../../db/schema';
import { blindIndex, encryptPhi, type PhiKeys } from '../../lib/phi-crypto';
import { DEMO_PATIENTS, findDemoProject, withCheck } from '../../db/demo-patients';
import { nextPatientSeq } from './patient.repository';

/**
 * Demo patients of 心力衰竭注册登记研究 (HF-REG) at C01 and C02, two in the HFpEF sub-project, encrypted with the
 * running instance's keys. Idempotent: does nothing once HF-REG has a patient (or when the demo data is absent).
 */
export async function seedDemoPatients(db: Db, keys: PhiKeys): Promise<number> {
  const hf = await findDemoProject(db);
  if (!hf) return 0;
  const [sub] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.tenantId, hf.tenantId), eq(projects.parentId, hf.id), eq(projects.code, 'HF-REG-HFPEF')))
    .limit(1);
  const centerRows = await db
    .select({ id: centers.id, code: centers.code })
    .from(centers)
    .where(and(eq(centers.tenantId, hf.tenantId), eq(centers.projectId, hf.id)));
  const centerOf = new Map(centerRows.map((c) => [c.code, c]));
  const [entry] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, hf.tenantId), eq(users.username, 'entry')))
    .limit(1);
  return db.transaction(async (tx) => {
    // The advisory lock of nextPatientSeq serialises two instances seeding at once; the check runs after it.
    let seq = await nextPatientSeq(tx, hf.id);
    if (seq > 1) return 0;
    let n = 0;
    for (const p of DEMO_PATIENTS) {
      const center = centerOf.get(p.center);
      if (!center) continue;
      const idNumber = withCheck(p.id17);
      await tx.insert(patients).values({
        tenantId: hf.tenantId,
        projectId: hf.id,
        subProjectId: p.sub && sub ? sub.id : null,
        centerId: center.id,
        seq,
        patientNo: `${center.code}-${String(seq).padStart(4, '0')}`,
        name: p.name,
        gender: Number(idNumber[16]) % 2 === 1 ? '1' : '2',
        birthDate: `${idNumber.slice(6, 10)}-${idNumber.slice(10, 12)}-${idNumber.slice(12, 14)}`,
        hospitalNo: p.hospitalNo,
        idNumberEnc: encryptPhi(keys, idNumber),
        idNumberBi: blindIndex(keys, idNumber),
        phoneEnc: encryptPhi(keys, p.phone),
        phoneBi: blindIndex(keys, p.phone),
        enrolDate: p.enrolDate,
        status: p.status,
        createdBy: entry?.id ?? null,
        updatedBy: entry?.id ?? null,
      });
      seq += 1;
      n += 1;
    }
    return n;
  });
}
