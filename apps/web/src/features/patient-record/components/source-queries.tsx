import { useState } from 'react';
import { Button, Form, Input, List, Space, Tag } from 'antd';
import type { DataQueryVO } from '@registry/shared/contracts/form-record';
import { QUERY_STATUS_LABELS } from '@registry/shared/contracts/form-record-codes';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { formatTime } from '../../../lib/format-time';
import { toast } from '../../../lib/toast';
import { useAnswerQuery } from '../api/answer-query';
import { useCloseQuery } from '../api/close-query';
import { useCreateQuery } from '../api/create-query';

/** One query of a data point: its message, answer and closing; 回复 (an editor) and 关闭 (a monitor). */
export function QueryItem({
  query,
  canAnswer,
  canClose,
}: {
  query: DataQueryVO;
  canAnswer: boolean;
  canClose: boolean;
}) {
  const { modal } = useFeedback();
  const answer = useAnswerQuery();
  const close = useCloseQuery();
  const [answering, setAnswering] = useState(false);
  const [text, setText] = useState('');
  const onAnswer = async () => {
    if (!text.trim()) {
      toast.error('请填写回复内容');
      return;
    }
    try {
      await answer.mutateAsync({ id: query.id, answer: text.trim() });
      toast.success('已回复');
      setAnswering(false);
      setText('');
    } catch {
      // The request layer showed why.
    }
  };
  const onClose = () => {
    let note = '';
    modal.confirm({
      title: '关闭质疑',
      content: (
        <Input.TextArea
          aria-label="关闭说明"
          placeholder="关闭说明（可选）"
          maxLength={1000}
          rows={3}
          onChange={(e) => {
            note = e.target.value;
          }}
        />
      ),
      okText: '关闭质疑',
      cancelText: '取消',
      onOk: async () => {
        await close.mutateAsync({ id: query.id, ...(note.trim() ? { note: note.trim() } : {}) });
        toast.success('质疑已关闭');
      },
    });
  };
  return (
    <List.Item
      actions={[
        canAnswer && query.status === 'open' && !answering && (
          <Button key="answer" size="small" onClick={() => setAnswering(true)}>
            回复
          </Button>
        ),
        canClose && query.status !== 'closed' && (
          <Button key="close" size="small" onClick={onClose}>
            关闭
          </Button>
        ),
      ].filter(Boolean)}
    >
      <List.Item.Meta
        title={
          <Space size={6} wrap>
            <span>{query.message}</span>
            <Tag color={query.status === 'open' ? 'red' : query.status === 'answered' ? 'gold' : 'default'}>
              {QUERY_STATUS_LABELS[query.status]}
            </Tag>
            {query.origin === 'auto' && <Tag>系统校验</Tag>}
          </Space>
        }
        description={
          <div>
            <div>
              {query.raisedByName ?? '系统'} 发起于 {formatTime(query.raisedAt)}
            </div>
            {query.answer && (
              <div>
                回复：{query.answer}（{query.answeredByName ?? '—'} {formatTime(query.answeredAt)}）
              </div>
            )}
            {query.status === 'closed' && (
              <div>
                关闭：{query.closeNote ?? '—'}（{query.closedByName ?? '系统'} {formatTime(query.closedAt)}）
              </div>
            )}
            {answering && (
              <Space.Compact style={{ width: '100%', marginTop: 8 }}>
                <Input
                  aria-label="回复内容"
                  autoFocus
                  value={text}
                  maxLength={1000}
                  onChange={(e) => setText(e.target.value)}
                  onPressEnter={() => void onAnswer()}
                />
                <Button type="primary" loading={answer.isPending} onClick={() => void onAnswer()}>
                  发送
                </Button>
                <Button onClick={() => setAnswering(false)}>取消</Button>
              </Space.Compact>
            )}
          </div>
        }
      />
    </List.Item>
  );
}

/** 发起质疑 on a data point (a monitor). */
export function RaiseQuery({ recordId, path }: { recordId: string; path: string }) {
  const create = useCreateQuery();
  const [form] = Form.useForm<{ message: string }>();
  return (
    <Form
      form={form}
      layout="inline"
      style={{ marginTop: 12 }}
      onFinish={async ({ message }) => {
        try {
          await create.mutateAsync({ recordId, path, message: message.trim() });
          toast.success('已发起质疑');
          form.resetFields();
        } catch {
          // The request layer showed why.
        }
      }}
    >
      <Form.Item
        name="message"
        style={{ flex: 1 }}
        rules={[
          { required: true, whitespace: true, message: '请填写质疑内容' },
          { max: 1000, message: '质疑内容不能超过1000个字符' },
        ]}
      >
        <Input aria-label="质疑内容" placeholder="对该数据的疑问，如：与病历记录不一致，请核实" maxLength={1000} />
      </Form.Item>
      <Form.Item style={{ marginInlineEnd: 0 }}>
        <Button htmlType="submit" loading={create.isPending}>
          发起质疑
        </Button>
      </Form.Item>
    </Form>
  );
}
