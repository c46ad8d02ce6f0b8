import { memo, type CSSProperties, type ReactNode } from 'react';
import { Divider, Tag, Typography } from 'antd';
import type { RecordIssue } from '@registry/shared/contracts/form-definition';
import type { FieldDefinition, MissingCode } from '@registry/shared/forms/definition';
import { GroupField, sameGroupProps } from './group-field';
import { IssueList, issueStatus } from './issue-list';
import { ValueCell } from './value-cell';
import './crf-field.css';

/**
 * Off-screen fields skip style, layout and paint (content-visibility): showing or hiding a field in a 300-field form
 * then lays out what is on screen, not the whole form. That containment clips what overflows the item, so the item's
 * spacing is padding rather than margin (antd lets the help text run into the space below), and the inline padding
 * keeps the input's focus ring inside; the negative inline margin keeps the layout where it was.
 */
const FIELD_STYLE: CSSProperties = {
  marginBottom: 0,
  paddingBottom: 24,
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 80px',
  paddingInline: 4,
  marginInline: -4,
};

export type FieldItemProps = {
  field: FieldDefinition;
  idPrefix: string;
  value: unknown;
  /** Issues shown at this field (for a group: its own and its cells'). */
  issues: readonly RecordIssue[];
  /** Group only: hidden cell paths joined by newlines. */
  hiddenCells: string;
  missingCodes: readonly MissingCode[];
  onFieldChange: (key: string, value: unknown) => void;
  readOnly: boolean;
  /** Marks by data path: the field's own beside its label, a group's cells' beside their inputs. */
  markers: ReadonlyMap<string, ReactNode> | undefined;
  /** Set: the field cannot be edited, and this says why (under the input). */
  lockedHint: string | undefined;
};

/** The DOM id of a field's input in one renderer. */
export function fieldInputId(idPrefix: string, key: string): string {
  return `${idPrefix}-${key}`;
}

function FieldLabel({ field, marker }: { field: FieldDefinition; marker: ReactNode }) {
  return (
    <span>
      {field.label}
      {field.phi && (
        <Tag color="purple" style={{ marginInlineStart: 6, fontSize: 11, lineHeight: '16px' }}>
          隐私
        </Tag>
      )}
      {marker != null && <span className="crf-field-marker">{marker}</span>}
    </span>
  );
}

function helpOf(field: FieldDefinition, lockedHint: string | undefined): ReactNode {
  if (!lockedHint) return field.help;
  return (
    <>
      {field.help && <div>{field.help}</div>}
      <div className="crf-locked-hint" style={{ color: '#8c8c8c' }}>
        {lockedHint}
      </div>
    </>
  );
}

/**
 * One field of the form: label (required mark, 「隐私」 tag), the input, help and the engine's issues (hard as error,
 * soft as warning). Memoised: a keystroke elsewhere does not render it again.
 */
export const FieldItem = memo(function FieldItem({
  field,
  idPrefix,
  value,
  issues,
  hiddenCells,
  missingCodes,
  onFieldChange,
  readOnly: formReadOnly,
  markers,
  lockedHint,
}: FieldItemProps) {
  const readOnly = formReadOnly || lockedHint !== undefined;
  if (field.type === 'section') {
    return (
      <div className="crf-section">
        <Divider titlePlacement="start" style={{ marginBlock: '16px 8px' }}>
          <span role="heading" aria-level={3}>
            {field.label}
          </span>
        </Divider>
        {field.help && <Typography.Paragraph type="secondary">{field.help}</Typography.Paragraph>}
      </div>
    );
  }
  if (field.type === 'description') {
    return (
      <Typography.Paragraph className="crf-description">
        {field.label}
        {field.help && (
          <>
            <br />
            <Typography.Text type="secondary">{field.help}</Typography.Text>
          </>
        )}
      </Typography.Paragraph>
    );
  }

  const id = fieldInputId(idPrefix, field.key);
  const own = field.type === 'group' ? issues.filter((i) => i.path === field.key) : issues;
  const status = issueStatus(own);
  const extra = helpOf(field, lockedHint);
  // The markup and look of antd's vertical Form.Item (crf-field.css) without its components: a Form.Item mounts a
  // row, two columns, a label, a motion list for its help and a breakpoint subscription, half of a field's cost.
  return (
    <div className={status ? `crf-field crf-field-has-${status}` : 'crf-field'} style={FIELD_STYLE}>
      <div className="crf-field-label">
        <label htmlFor={id} className={field.required ? 'crf-field-required' : undefined}>
          <FieldLabel field={field} marker={markers?.get(field.key)} />
        </label>
      </div>
      <div className="crf-field-control-input">
        <div className="crf-field-control-input-content">
          {field.type === 'group' ? (
            <GroupField
              field={field}
              idPrefix={idPrefix}
              value={value}
              issues={issues}
              hiddenCells={hiddenCells}
              missingCodes={missingCodes}
              onFieldChange={onFieldChange}
              readOnly={readOnly}
              markers={markers}
            />
          ) : (
            <ValueCell
              field={field}
              id={id}
              ariaLabel={field.label}
              value={value}
              missingCodes={missingCodes}
              onChange={(next) => onFieldChange(field.key, next)}
              disabled={readOnly}
              status={status}
            />
          )}
        </div>
      </div>
      {own.length > 0 && (
        <div className="crf-field-explain" role="alert">
          <IssueList issues={own} />
        </div>
      )}
      {extra != null && extra !== '' && <div className="crf-field-extra">{extra}</div>}
    </div>
  );
}, sameFieldProps);

/** Memo comparison of a field's props: a group's, and the lock. */
function sameFieldProps(a: FieldItemProps, b: FieldItemProps): boolean {
  return a.lockedHint === b.lockedHint && sameGroupProps(a, b);
}
