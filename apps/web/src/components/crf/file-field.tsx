import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Upload, type UploadFile } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { IMAGE_EXTENSIONS } from '@registry/shared/constants';
import { isImageFileName } from '@registry/shared/image';
import type { UploadResult } from '@registry/shared/contracts/file';
import type { AnyField } from '@registry/shared/forms/definition';
import { toast } from '../../lib/toast';
import { filePreviewUrl, uploadFile } from '../../api/files';

/** A file field's stored value: one entry per uploaded file. */
export type StoredFile = { fileId: string; name: string };

function asStoredFiles(value: unknown): StoredFile[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is StoredFile =>
      typeof v === 'object' &&
      v !== null &&
      typeof (v as StoredFile).fileId === 'string' &&
      typeof (v as StoredFile).name === 'string',
  );
}

export type FileFieldProps = {
  field: AnyField;
  id: string;
  ariaLabel: string;
  value: unknown;
  onChange: (value: StoredFile[] | undefined) => void;
  disabled?: boolean;
};

/** Files or images uploaded to `oss/file/upload-file?purpose=attachment`; the record keeps `{ fileId, name }[]`. */
export function FileField({ field, id, ariaLabel, value, onChange, disabled }: FileFieldProps) {
  const stored = useMemo(() => asStoredFiles(value), [value]);
  const [pending, setPending] = useState<UploadFile<UploadResult>[]>([]);
  const imagesOnly = field.accept === 'image';
  const maxFiles = field.maxFiles ?? (imagesOnly ? 9 : 10);
  // Several uploads may finish before the next render: each adds to the latest list, not to a stale prop.
  const latest = useRef(stored);
  useEffect(() => {
    latest.current = stored;
  }, [stored]);

  const emit = (next: StoredFile[]) => {
    latest.current = next;
    onChange(next.length > 0 ? next : undefined);
  };

  const fileList: UploadFile<UploadResult>[] = [
    ...stored.map((f): UploadFile<UploadResult> => {
      const url = filePreviewUrl(f.fileId);
      return {
        uid: f.fileId,
        name: f.name,
        status: 'done',
        url,
        thumbUrl: isImageFileName(f.name) ? url : undefined,
      };
    }),
    ...pending,
  ];
  const full = fileList.length >= maxFiles;

  return (
    <Upload<UploadResult>
      id={id}
      listType={imagesOnly ? 'picture-card' : 'text'}
      accept={imagesOnly ? IMAGE_EXTENSIONS.map((ext) => `.${ext}`).join(',') : undefined}
      multiple={maxFiles > 1}
      disabled={disabled}
      fileList={fileList}
      beforeUpload={(file, batch) => {
        if (imagesOnly && !isImageFileName(file.name)) {
          toast.error(`仅支持 ${IMAGE_EXTENSIONS.join('、')} 格式的图片`);
          return Upload.LIST_IGNORE;
        }
        const room = maxFiles - latest.current.length - pending.length;
        if (batch.indexOf(file) >= room) {
          toast.error(`最多上传 ${maxFiles} 个文件`);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file, onProgress, onSuccess, onError }) => {
        uploadFile(file as File, 'attachment', (percent) => onProgress?.({ percent }))
          .then((result) => onSuccess?.(result))
          .catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))));
      }}
      onChange={({ file, fileList: next }) => {
        if (file.status === 'done' && file.response) {
          emit([...latest.current, { fileId: file.response.id, name: file.response.name }]);
        }
        const storedIds = new Set(latest.current.map((f) => f.fileId));
        setPending(next.filter((f) => f.status !== 'done' && f.status !== 'removed' && !storedIds.has(f.uid)));
      }}
      onRemove={(file) => {
        if (latest.current.some((f) => f.fileId === file.uid)) {
          emit(latest.current.filter((f) => f.fileId !== file.uid));
        } else {
          setPending((list) => list.filter((f) => f.uid !== file.uid));
        }
        return true;
      }}
    >
      {disabled || full ? null : imagesOnly ? (
        <button
          type="button"
          aria-label={`上传${ariaLabel}`}
          style={{ border: 0, background: 'none', cursor: 'pointer' }}
        >
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>上传图片</div>
        </button>
      ) : (
        <Button icon={<UploadOutlined />} aria-label={`上传${ariaLabel}`}>
          上传文件
        </Button>
      )}
    </Upload>
  );
}
