import { describe, expect, it } from 'vitest';
import { maskBirthDate, maskHospitalNo, maskIdNumber, maskName, maskPhone, showPatientValue } from './phi-mask';

describe('the PHI masking policy', () => {
  it('should mask each identity value of a patient', () => {
    expect(maskName('王小明')).toBe('王**');
    expect(maskName('欧阳娜娜')).toBe('欧阳**');
    expect(maskIdNumber('110105199003071239')).toBe('1101**********1239');
    expect(maskPhone('13800000001')).toBe('138****0001');
    expect(maskBirthDate('1990-03-07')).toBe('1990-**-**');
    expect(maskHospitalNo('ZY20260001')).toBe('********01');
    expect(maskHospitalNo('A12')).toBe('***');
  });

  it('should show a value in clear with patient.pii, masked without, and leave other fields alone', () => {
    expect(showPatientValue('birthDate', '1990-03-07', true)).toBe('1990-03-07');
    expect(showPatientValue('birthDate', '1990-03-07', false)).toBe('1990-**-**');
    expect(showPatientValue('hospitalNo', 'ZY20260001', false)).toBe('********01');
    expect(showPatientValue('phone', null, false)).toBeNull();
    expect(showPatientValue('enrolDate', '2026-01-01', false)).toBe('2026-01-01');
  });
});
