import { useMemo, type ReactNode } from 'react';
import { Space, Tag, Tooltip } from 'antd';
import type { FormRecordVO } from '@registry/shared/contracts/form-record';
import type { FormDefinition, MissingCode } from '@registry/shared/forms/definition';
import { pathLabel } from '../../../components/crf/crf-paths';
import { fieldAt } from '../hooks/record-definition';
import { FieldMarker, isMarked } from './field-marker';

/** The mark of a field bound to the patient record. */
export const BOUND_HINT = '取自患者信息（与新增患者、编辑患者同一份数据）：修改会同时更新患者信息';
export const MASKED_HINT = '隐私信息已隐藏（您没有查看患者身份信息的权限），不能修改';

/** The masked PHI fields, locked with their hint. */
export function useLockedFields(masked: ReadonlySet<string>): ReadonlyMap<string, string> {
  return useMemo(() => {
    const out = new Map<string, string>();
    for (const key of masked) out.set(key, MASKED_HINT);
    return out;
  }, [masked]);
}

/**
 * The marks beside the fields: a data point's history (changed, verified, queried) and the binding to the patient
 * record. They change with the record's points (a load, a save), never with a keystroke.
 */
export function useFieldMarkers(
  record: FormRecordVO,
  form: FormDefinition,
  missingCodes: readonly MissingCode[],
): ReadonlyMap<string, ReactNode> {
  const recordId = record.id;
  const points = record.points;
  return useMemo(() => {
    const out = new Map<string, ReactNode>();
    for (const point of recordId ? points : []) {
      if (!isMarked(point)) continue;
      out.set(
        point.path,
        <FieldMarker
          recordId={recordId ?? ''}
          path={point.path}
          label={pathLabel(form, point.path)}
          point={point}
          field={fieldAt(form, point.path)}
          missingCodes={missingCodes}
        />,
      );
    }
    // Fields bound to the patient record: the patient's own value, not a second copy.
    for (const field of form.repeating ? [] : form.fields) {
      if (!field.binding) continue;
      const own = out.get(field.key);
      out.set(
        field.key,
        <Space size={4} key={field.key}>
          {own}
          <Tooltip title={BOUND_HINT}>
            <Tag color="geekblue" className="bound-mark">
              患者信息
            </Tag>
          </Tooltip>
        </Space>,
      );
    }
    return out;
  }, [recordId, points, form, missingCodes]);
}
