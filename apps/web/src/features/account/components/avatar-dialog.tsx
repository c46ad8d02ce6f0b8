import { useState } from 'react';
import { Button, Modal, Upload, type UploadFile } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { LAYOUT, IMAGE_EXTENSIONS } from '@registry/shared/constants';
import { isImageFileName } from '@registry/shared/image';
import type { UploadResult } from '@registry/shared/contracts/file';
import { toast } from '../../../lib/toast';
import { uploadFile } from '../../../api/files';
import { useUpdateUser } from '../api/update-user';

export const AVATAR_TYPE_ERROR = `仅支持 ${IMAGE_EXTENSIONS.join('、')} 格式的图片`;
/** SVG passes the seed's extension check but the server refuses it as an avatar: it can carry script. */
const AVATAR_HINT = `支持 ${IMAGE_EXTENSIONS.filter((ext) => ext !== 'svg').join('、')} 格式（出于安全原因不支持 SVG），只能上传一张图片。`;

export type AvatarDialogProps = { open: boolean; userId: string; onClose: () => void };

/** Avatar setting (tenant type PERSONAL only): upload one image, confirm saves the user with it (seed §2). */
export function AvatarDialog({ open, userId, onClose }: AvatarDialogProps) {
  const [fileList, setFileList] = useState<UploadFile<UploadResult>[]>([]);
  const updateUser = useUpdateUser();
  const uploaded = fileList.find((file) => file.status === 'done')?.response;

  const close = () => {
    setFileList([]);
    onClose();
  };

  const confirm = async () => {
    if (!uploaded) return;
    await updateUser.mutateAsync({ id: userId, avatar: uploaded.previewUrl });
    toast.success('头像设置成功');
    close();
  };

  return (
    <Modal
      title="头像设置"
      width={LAYOUT.avatarDialogWidth}
      open={open}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          取消
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={!uploaded}
          loading={updateUser.isPending}
          onClick={() => {
            confirm().catch(() => undefined);
          }}
        >
          确定
        </Button>,
      ]}
    >
      <Upload<UploadResult>
        listType="picture-card"
        accept={IMAGE_EXTENSIONS.map((ext) => `.${ext}`).join(',')}
        maxCount={1}
        fileList={fileList}
        onChange={({ fileList: next }) => setFileList(next.slice(-1))}
        beforeUpload={(file) => {
          if (!isImageFileName(file.name)) {
            toast.error(AVATAR_TYPE_ERROR);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          uploadFile(file as File, 'avatar', (percent) => onProgress?.({ percent }))
            .then((result) => onSuccess?.(result))
            .catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))));
        }}
      >
        {fileList.length === 0 && (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传头像</div>
          </button>
        )}
      </Upload>
      <p style={{ color: '#8c8c8c', margin: 0 }}>{AVATAR_HINT}</p>
    </Modal>
  );
}
