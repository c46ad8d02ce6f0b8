import { Typography } from 'antd';
import type { ValueVersionVO } from '@registry/shared/contracts/form-record';
import { VALUE_SOURCE_LABELS } from '@registry/shared/contracts/form-record-codes';
import type { AnyField, MissingCode } from '@registry/shared/forms/definition';
import { isBlankValue } from '@registry/shared/forms/values';
import { useDictOptionPage } from '../../../api/dict-options';
import { BLANK_TEXT, formatValue } from '../hooks/format-value';

function DictValue({ dictCode, code }: { dictCode: string; code: string }) {
  const labels = useDictOptionPage({ dictCode, codes: [code], size: 1 });
  const label = labels.data?.records.find((o) => o.code === code)?.label;
  return <>{label ? `${label}（${code}）` : code}</>;
}

export type ValueTextProps = {
  field: AnyField | undefined;
  value: unknown;
  missingCodes: readonly MissingCode[];
  /** The value is withheld from this user (PHI without `patient.pii`). */
  masked?: boolean;
};

/** A stored value as text: labels for codes, units for numbers, `（空）` for blank, `***` when withheld. */
export function ValueText({ field, value, missingCodes, masked }: ValueTextProps) {
  if (masked) return <Typography.Text type="secondary">***（隐私信息已隐藏）</Typography.Text>;
  if (isBlankValue(value)) return <Typography.Text type="secondary">{BLANK_TEXT}</Typography.Text>;
  const isCode = typeof value === 'string' && field?.missingCodes?.includes(value);
  if (field?.type === 'dict' && field.dictCode && typeof value === 'string' && !isCode) {
    return <DictValue dictCode={field.dictCode} code={value} />;
  }
  return <>{formatValue(field, value, missingCodes)}</>;
}

function refText(ref: ValueVersionVO['sourceRef'], key: string): string | null {
  const value = ref?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/**
 * Where a version came from: 手工录入, Excel导入 with its file and row, AI识别 with its document page (the crop of the
 * page region arrives with the recognition pages), 接口, 自动计算.
 */
export function sourceText(version: Pick<ValueVersionVO, 'source' | 'sourceRef'>): string {
  const label = VALUE_SOURCE_LABELS[version.source];
  if (version.source === 'import') {
    const file = refText(version.sourceRef, 'fileName');
    const row = refText(version.sourceRef, 'row');
    const parts = [file ? `文件「${file}」` : null, row ? `第 ${row} 行` : null].filter(Boolean);
    return parts.length > 0 ? `${label}（${parts.join('，')}）` : label;
  }
  if (version.source === 'recognition') {
    const page = refText(version.sourceRef, 'page');
    return page ? `${label}（文档第 ${page} 页）` : label;
  }
  return label;
}
