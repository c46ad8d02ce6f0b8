import { useState } from 'react';
import { Input, Modal, Table, Typography } from 'antd';
import type { PatientListItem } from '@registry/shared/contracts/patient';
import { usePatientKeywordPlaceholder } from '../../../../lib/permission';
import { toast } from '../../../../lib/toast';
import { useAddAssignments } from '../api/add-assignments';
import { usePatientSearch } from '../api/search-patients';

/** 添加患者: search the project's patients (number, hospital number, name), select, attach to the plan. */
export function AddPatientsDialog({ planId, open, onClose }: { planId: string; open: boolean; onClose: () => void }) {
  const [input, setInput] = useState('');
  const keywordPlaceholder = usePatientKeywordPlaceholder();
  const [keyword, setKeyword] = useState('');
  const [current, setCurrent] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const patients = usePatientSearch(keyword, current, open);
  const add = useAddAssignments();
  const close = () => {
    setInput('');
    setKeyword('');
    setCurrent(1);
    setSelected([]);
    onClose();
  };
  const confirm = async () => {
    if (selected.length === 0) {
      toast.warning('请选择患者');
      return;
    }
    try {
      const r = await add.mutateAsync({ planId, patientIds: selected });
      const skipped = r.skipped > 0 ? `，${r.skipped} 名已在计划中` : '';
      const waiting = r.waitingForAnchor > 0 ? `，${r.waitingForAnchor} 名患者缺少基准日期` : '';
      toast.success(`已添加 ${r.assigned} 名患者${skipped}，生成 ${r.tasksCreated} 条随访任务${waiting}`);
      close();
    } catch {
      // The request layer showed the server's message.
    }
  };
  return (
    <Modal
      title="添加患者"
      open={open}
      width={720}
      okText={selected.length > 0 ? `添加 ${selected.length} 名患者` : '添加'}
      cancelText="取消"
      confirmLoading={add.isPending}
      onOk={() => void confirm()}
      onCancel={close}
      destroyOnHidden
    >
      <Input.Search
        aria-label="搜索患者"
        placeholder={keywordPlaceholder}
        allowClear
        enterButton="搜索"
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onSearch={(value) => {
          setKeyword(value.trim());
          setCurrent(1);
        }}
        style={{ marginBottom: 12 }}
      />
      <Table<PatientListItem>
        rowKey="id"
        size="small"
        loading={patients.isFetching}
        dataSource={patients.data?.records ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys.map(String)),
        }}
        pagination={{
          current,
          pageSize: 10,
          total: patients.data?.total ?? 0,
          onChange: setCurrent,
          showSizeChanger: false,
        }}
        locale={{ emptyText: keyword ? '没有匹配的患者' : '暂无患者' }}
        columns={[
          { title: '患者编号', dataIndex: 'patientNo' },
          { title: '姓名', dataIndex: 'name' },
          { title: '住院号', dataIndex: 'hospitalNo', render: (v: string | null) => v ?? '—' },
          { title: '中心', dataIndex: 'centerName' },
          { title: '入组日期', dataIndex: 'enrolDate', render: (v: string | null) => v ?? '—' },
        ]}
      />
      <Typography.Text type="secondary">已在计划中的患者会被跳过；已移出的患者将恢复随访。</Typography.Text>
    </Modal>
  );
}
