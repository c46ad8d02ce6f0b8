import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { RecordStatus } from '@registry/shared/contracts/form-record-codes';
import { DEFAULT_MISSING_CODES, type Definition, type FormDefinition } from '@registry/shared/forms/definition';
import { renderWithProviders } from '../../test/render';
import { ApiError } from '../../lib/request';
import { CrfForm } from './crf-form';
import { SaveStatus } from './save-status';
import { AUTOSAVE_DELAY_MS, useRecordSession, type RecordSaveCall, type RecordSessionApi } from './use-record-session';

type Data = Record<string, unknown>;
/** The smallest record a session can edit. */
type Rec = { id: string | null; status: RecordStatus; rowVersion: number; data: Data };

const FORM: FormDefinition = {
  key: 'visit',
  title: '随访记录',
  fields: [
    { key: 'nyha', label: 'NYHA分级', type: 'text', maxLength: 20 },
    { key: 'note', label: '备注', type: 'text' },
  ],
};
const DEFINITION: Definition = {
  categories: [{ key: 'fu', title: '随访', forms: [FORM] }],
  missingCodes: DEFAULT_MISSING_CODES,
};
const NO_VALUES: Readonly<Data> = Object.freeze({});

function record(overrides: Partial<Rec> = {}): Rec {
  return { id: 'r-1', status: 'draft', rowVersion: 3, data: { nyha: 'II级' }, ...overrides };
}

type Server = {
  saves: RecordSaveCall<Rec>[];
  /** What the next saves answer (a refusal is thrown); past the list, the save succeeds. */
  answers: ApiError[];
  /** What a reload reads. */
  stored: Rec;
  api: RecordSessionApi<Rec>;
};

/** The calls of the session, answered in memory. */
function fakeServer(stored: Rec): Server {
  const server = { saves: [], answers: [], stored } as unknown as Server;
  server.api = {
    read: (r) => ({
      id: r.id,
      status: r.status,
      rowVersion: r.rowVersion,
      data: r.data,
      masked: new Set(),
      issues: [],
    }),
    save: async (call) => {
      server.saves.push(call);
      const refusal = server.answers.shift();
      if (refusal) throw refusal;
      server.stored = { ...call.record, data: call.data, rowVersion: call.record.rowVersion + 1 };
      return server.stored;
    },
    load: async () => server.stored,
  };
  return server;
}

/** An editor on the session: the form, its save state, the 409 alert with 重新加载, the carried-over edits. */
function Editor({ api, initial, latest }: { api: RecordSessionApi<Rec>; initial: Rec; latest?: Rec }) {
  const session = useRecordSession({
    initial,
    latest,
    api,
    form: FORM,
    definition: DEFINITION,
    external: NO_VALUES,
    canEdit: true,
  });
  return (
    <div>
      <SaveStatus
        state={session.saveState}
        dirty={session.dirty}
        reasonRequired={session.reasonRequired}
        savedAt={session.savedAt}
        className="status"
        sayAuto
      />
      {session.conflict && (
        <div role="alert">
          保存失败：{session.conflict.message}
          <button type="button" onClick={() => void session.reload()}>
            重新加载
          </button>
        </div>
      )}
      {session.carryOver && (
        <button type="button" onClick={session.restoreCarryOver}>
          填回我的修改
        </button>
      )}
      <button type="button" onClick={() => void session.save({ action: 'draft' })}>
        保存草稿
      </button>
      <CrfForm
        form={FORM}
        definition={DEFINITION}
        value={session.data}
        onChange={session.setData}
        external={NO_VALUES}
        issues={session.serverIssues}
        mode="submit"
        showAllIssues={session.showAllIssues}
        readOnly={!session.editable}
      />
    </div>
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('useRecordSession', () => {
  it('should save a draft by itself 2 s after typing stops and go on from the saved rowVersion', async () => {
    const server = fakeServer(record());
    renderWithProviders(<Editor api={server.api} initial={record()} />);
    type('NYHA分级', 'III级');
    expect(screen.getByRole('status')).toHaveTextContent('未保存');
    // Nothing is sent while the user may still be typing.
    expect(server.saves).toHaveLength(0);
    await waitFor(() => expect(server.saves).toHaveLength(1), { timeout: AUTOSAVE_DELAY_MS * 2 });
    expect(server.saves[0]).toMatchObject({ action: 'draft', data: { nyha: 'III级' }, record: { rowVersion: 3 } });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/^已自动保存 \d{2}:\d{2}$/));
    type('NYHA分级', 'IV级');
    await waitFor(() => expect(server.saves).toHaveLength(2), { timeout: AUTOSAVE_DELAY_MS * 2 });
    expect(server.saves[1]).toMatchObject({ data: { nyha: 'IV级' }, record: { rowVersion: 4 } });
  });

  it('should stop saving after a 409 until the record is reloaded, then save on from it and offer the edits back', async () => {
    const server = fakeServer(record());
    server.answers.push(new ApiError(409, '表单已被他人修改'));
    renderWithProviders(<Editor api={server.api} initial={record()} />);
    type('备注', '复测');
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('保存失败：表单已被他人修改');
    expect(screen.getByRole('status')).toHaveTextContent('保存冲突，未保存');
    // Nothing more goes out while the conflict stands: neither the autosave after typing nor an explicit save.
    type('NYHA分级', 'III级');
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await pause(AUTOSAVE_DELAY_MS + 500);
    expect(server.saves).toHaveLength(1);

    // Someone else's save, read by 重新加载: it replaces the data, the edits made here are offered back.
    server.stored = record({ rowVersion: 5, data: { nyha: 'I级' } });
    fireEvent.click(screen.getByRole('button', { name: '重新加载' }));
    await waitFor(() => expect(screen.getByLabelText('NYHA分级')).toHaveValue('I级'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('备注')).toHaveValue('');
    fireEvent.click(screen.getByRole('button', { name: '填回我的修改' }));
    expect(screen.getByLabelText('备注')).toHaveValue('复测');
    expect(screen.getByLabelText('NYHA分级')).toHaveValue('III级');
    // Saving goes on, from the reloaded rowVersion.
    await waitFor(() => expect(server.saves).toHaveLength(2), { timeout: AUTOSAVE_DELAY_MS * 2 });
    expect(server.saves[1]).toMatchObject({ data: { nyha: 'III级', note: '复测' }, record: { rowVersion: 5 } });
  });

  it("should put a 400's issues at their fields and say the draft is not saved", async () => {
    const server = fakeServer(record());
    const issues: RecordIssue[] = [
      { path: 'nyha', fieldKey: 'nyha', message: 'NYHA分级与随访日期不符', level: 'hard' },
    ];
    server.answers.push(new ApiError(400, '数据校验未通过', { issues }));
    renderWithProviders(<Editor api={server.api} initial={record()} />);
    type('NYHA分级', 'III级');
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    expect(await screen.findByText('NYHA分级与随访日期不符')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('未保存：有需要修正的问题');
    // The same data is not sent again by the autosave.
    await pause(AUTOSAVE_DELAY_MS + 500);
    expect(server.saves).toHaveLength(1);
  });

  it("should take a newer record from the server while nothing is edited, and keep the user's unsaved edits", async () => {
    const server = fakeServer(record());
    const initial = record();
    const view = renderWithProviders(<Editor api={server.api} initial={initial} latest={initial} />);
    view.rerender(
      <Editor api={server.api} initial={initial} latest={record({ rowVersion: 4, data: { nyha: 'I级' } })} />,
    );
    await waitFor(() => expect(screen.getByLabelText('NYHA分级')).toHaveValue('I级'));

    type('NYHA分级', 'IV级');
    view.rerender(
      <Editor api={server.api} initial={initial} latest={record({ rowVersion: 6, data: { nyha: 'II级' } })} />,
    );
    await pause(50);
    expect(screen.getByLabelText('NYHA分级')).toHaveValue('IV级');
    expect(screen.getByRole('status')).toHaveTextContent('未保存');
  });

  it('should never save a submitted record by itself (a change needs a reason)', async () => {
    const server = fakeServer(record({ status: 'submitted' }));
    renderWithProviders(<Editor api={server.api} initial={record({ status: 'submitted' })} />);
    type('NYHA分级', 'III级');
    expect(screen.getByRole('status')).toHaveTextContent('未保存（保存修改需填写原因）');
    await pause(AUTOSAVE_DELAY_MS + 500);
    expect(server.saves).toHaveLength(0);
  });
});
