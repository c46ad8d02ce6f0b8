import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

/** The clear "not yet available" state of pages that later issues build. */
export function UnderConstruction({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={title}
      subTitle="该功能正在建设中，敬请期待。"
      extra={<Button onClick={() => navigate(-1)}>返回上一页</Button>}
    />
  );
}
