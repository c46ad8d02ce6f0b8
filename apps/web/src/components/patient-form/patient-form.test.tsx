import { describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import type { PatientCreateRequest, PatientUpdateRequest } from '@registry/shared/contracts/patient';
import { server } from '../../test/server';
import { apiUrl, http, ok } from '../../test/api';
import { renderWithProviders } from '../../test/render';
import { ApiError } from '../../lib/request';
import { buildCenter, buildPatient } from './test-factories';
import { PatientForm, patientToValues, STALE_MESSAGE, toUpdateBody } from './patient-form';

describe('toUpdateBody', () => {
  it('should send only the changed fields, a cleared one as null, with the row version when a patient is edited', () => {
    const patient = buildPatient({ rowVersion: 4 });
    const values = { ...patientToValues(patient), phone: '', hospitalNo: ' ZY9 ', enrolDate: dayjs('2026-10-10') };
    expect(toUpdateBody(patient, values)).toEqual({
      id: patient.id,
      rowVersion: 4,
      phone: null,
      hospitalNo: 'ZY9',
      enrolDate: '2026-10-10',
    });
  });

  it('should never send masked name, identity number or phone back when the user lacks patient.pii', () => {
    const patient = buildPatient({ masked: true, name: '张*', idNumber: '1101**********0013', phone: '138****0001' });
    const values = { ...patientToValues(patient), name: '张*改', phone: '', status: 'withdrawn' as const };
    expect(toUpdateBody(patient, values)).toEqual({ id: patient.id, rowVersion: 1, status: 'withdrawn' });
  });

  it('should keep a masked birth date and hospital number out of the form and out of the body', () => {
    const patient = buildPatient({ masked: true, name: '张*', birthDate: '1990-**-**', hospitalNo: '****01' });
    const values = patientToValues(patient);
    expect(values.birthDate).toBeNull();
    expect(toUpdateBody(patient, { ...values, hospitalNo: '', status: 'withdrawn' as const })).toEqual({
      id: patient.id,
      rowVersion: 1,
      status: 'withdrawn',
    });
  });
});

describe('PatientForm (edit)', () => {
  it('should offer 刷新 under the stale message when the save answers 409 without a field', async () => {
    server.use(http.get(apiUrl('/project-center/list'), () => ok([buildCenter()])));
    const onReload = vi.fn();
    const sent: PatientUpdateRequest[] = [];
    renderWithProviders(
      <PatientForm
        mode="edit"
        patient={buildPatient()}
        onReload={onReload}
        onSubmit={async (body) => {
          sent.push(body);
          throw new ApiError(409, STALE_MESSAGE, { status: 409, message: STALE_MESSAGE });
        }}
      />,
    );
    const status = await screen.findByText('已入组');
    expect(status).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('住院号'), { target: { value: 'ZY77' } });
    fireEvent.click(screen.getByText('保 存'));
    expect(await screen.findByText(STALE_MESSAGE)).toBeInTheDocument();
    expect(sent).toEqual([{ id: buildPatient().id, rowVersion: 1, hospitalNo: 'ZY77' }]);
    fireEvent.click(await screen.findByText('刷 新'));
    await waitFor(() => expect(onReload).toHaveBeenCalledTimes(1));
  });
});

describe('PatientForm (create)', () => {
  it('should only confirm the date picker on Enter, never send a half-filled form, and send it all from 保存', async () => {
    server.use(http.get(apiUrl('/project-center/list'), () => ok([buildCenter()])));
    const sent: PatientCreateRequest[] = [];
    const user = userEvent.setup({ delay: null });
    renderWithProviders(
      <PatientForm
        mode="create"
        onSubmit={async (body) => {
          sent.push(body);
        }}
      />,
    );
    await screen.findByText('患者登记在此中心');
    // Nothing filled: Enter in 入组日期 sends nothing.
    await user.click(screen.getByLabelText('入组日期'));
    await user.keyboard('2026-11-20{Enter}');
    expect(screen.getByLabelText('入组日期')).toHaveValue('2026-11-20');
    // The name filled, a date typed in 出生日期 and confirmed with Enter: still nothing sent.
    await user.click(screen.getByLabelText('姓名'));
    await user.keyboard('李四');
    await user.click(screen.getByLabelText('出生日期'));
    await user.keyboard('1970-01-02{Enter}');
    expect(screen.getByLabelText('出生日期')).toHaveValue('1970-01-02');
    await user.click(screen.getByLabelText('住院号'));
    await user.keyboard('ZY1');
    expect(sent).toEqual([]);
    // Enter in a text field saves, with every field filled so far.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      name: '李四',
      birthDate: '1970-01-02',
      enrolDate: '2026-11-20',
      hospitalNo: 'ZY1',
      centerId: 'c-1',
    });
  });

  it('should check the required name before any call when Enter is pressed in an empty form', async () => {
    server.use(http.get(apiUrl('/project-center/list'), () => ok([buildCenter()])));
    const onSubmit = vi.fn(async () => undefined);
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<PatientForm mode="create" onSubmit={onSubmit} />);
    await screen.findByText('患者登记在此中心');
    await user.click(screen.getByLabelText('住院号'));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('请输入患者姓名')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
