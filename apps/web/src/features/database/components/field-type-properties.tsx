import { Input, Select, Space } from 'antd';
import type { AnyField } from '@registry/shared/forms/definition';
import { useDicts } from '../../../api/dictionaries';
import type { listFieldChoices } from '../hooks/definition-ops';
import { PatternEditor } from './field-pattern-editor';
import { LogicInput } from './logic-input';
import { OptionsEditor } from './options-editor';
import { LEVEL_OPTIONS, NumberProp, Prop, type UpdateField } from './property-item';

type GroupProps = {
  field: AnyField;
  update: UpdateField;
  disabled: boolean;
};

/** The properties only some field types have, each group shown for its types, in the panel's order. */
export function TypeProperties({
  field,
  update,
  disabled,
  knownKeys,
  choices,
}: GroupProps & { knownKeys: ReadonlySet<string>; choices: ReturnType<typeof listFieldChoices> }) {
  const type = field.type;
  const isRange = type === 'integer' || type === 'decimal';
  const isDate = type === 'date' || type === 'datetime';
  const group = { field, update, disabled };
  return (
    <>
      {(isRange || type === 'calc') && <NumberProperties {...group} />}
      {type === 'calc' && (
        <Prop id="prop-formula" label="计算公式">
          <LogicInput
            id="prop-formula"
            value={field.formula}
            onChange={(formula) => update({ formula }, 'formula')}
            knownKeys={knownKeys}
            choices={choices}
            placeholder="如 round([weight] / ([height] / 100) ^ 2, 1)"
            disabled={disabled}
          />
        </Prop>
      )}
      {isRange && <RangeProperties {...group} />}
      {isDate && <DateProperties {...group} />}
      {(isRange || isDate) && (
        <Prop id="prop-range-level" label="范围校验级别">
          <Select
            id="prop-range-level"
            value={field.rangeLevel ?? 'hard'}
            options={LEVEL_OPTIONS}
            onChange={(rangeLevel) =>
              update({ rangeLevel: rangeLevel === 'hard' ? undefined : rangeLevel }, 'rangeLevel')
            }
          />
        </Prop>
      )}
      {(type === 'text' || type === 'textarea') && <TextProperties {...group} />}
      {(type === 'radio' || type === 'checkbox') && (
        <Prop label="选项">
          <OptionsEditor
            value={field.options ?? []}
            disabled={disabled}
            onChange={(options) => update({ options }, 'options')}
          />
        </Prop>
      )}
      {type === 'dict' && <DictProperty {...group} />}
      {type === 'file' && <FileProperties {...group} />}
      {type === 'group' && <GroupRowsProperties {...group} />}
    </>
  );
}

/** Integer, decimal and calc: the unit; decimal places for the two that have them. */
function NumberProperties({ field, update, disabled }: GroupProps) {
  return (
    <>
      <Prop id="prop-unit" label="单位">
        <Input id="prop-unit" value={field.unit ?? ''} onChange={(e) => update({ unit: e.target.value }, 'unit')} />
      </Prop>
      {field.type !== 'integer' && (
        <NumberProp
          id="prop-precision"
          label="小数位数"
          value={field.precision}
          min={0}
          precision={0}
          disabled={disabled}
          onChange={(precision) => update({ precision }, 'precision')}
        />
      )}
    </>
  );
}

/** Integer and decimal: the allowed range and the normal range. */
function RangeProperties({ field, update, disabled }: GroupProps) {
  return (
    <>
      <Space.Compact block>
        <NumberProp
          id="prop-min"
          label="最小值"
          value={field.min}
          disabled={disabled}
          onChange={(min) => update({ min }, 'min')}
        />
        <NumberProp
          id="prop-max"
          label="最大值"
          value={field.max}
          disabled={disabled}
          onChange={(max) => update({ max }, 'max')}
        />
      </Space.Compact>
      <Space.Compact block>
        <NumberProp
          id="prop-normal-low"
          label="正常值下限"
          value={field.normalLow}
          disabled={disabled}
          onChange={(normalLow) => update({ normalLow }, 'normalLow')}
        />
        <NumberProp
          id="prop-normal-high"
          label="正常值上限"
          value={field.normalHigh}
          disabled={disabled}
          onChange={(normalHigh) => update({ normalHigh }, 'normalHigh')}
        />
      </Space.Compact>
    </>
  );
}

/** Date and datetime: the earliest and latest date (a date or `today`). */
function DateProperties({ field, update }: GroupProps) {
  return (
    <Space.Compact block>
      <Prop id="prop-min-date" label="最早日期">
        <Input
          id="prop-min-date"
          placeholder="YYYY-MM-DD 或 today"
          value={field.minDate ?? ''}
          onChange={(e) => update({ minDate: e.target.value.trim() }, 'minDate')}
        />
      </Prop>
      <Prop id="prop-max-date" label="最晚日期">
        <Input
          id="prop-max-date"
          placeholder="YYYY-MM-DD 或 today"
          value={field.maxDate ?? ''}
          onChange={(e) => update({ maxDate: e.target.value.trim() }, 'maxDate')}
        />
      </Prop>
    </Space.Compact>
  );
}

/** Text and textarea: the maximum length and the format pattern. */
function TextProperties({ field, update, disabled }: GroupProps) {
  return (
    <>
      <NumberProp
        id="prop-max-length"
        label="最大长度"
        value={field.maxLength}
        min={1}
        precision={0}
        disabled={disabled}
        onChange={(maxLength) => update({ maxLength }, 'maxLength')}
      />
      <PatternEditor field={field} disabled={disabled} onChange={(pattern) => update({ pattern }, 'pattern')} />
    </>
  );
}

/** Dict: the dictionary whose items are the options (the list is loaded only for such a field). */
function DictProperty({ field, update }: GroupProps) {
  const dicts = useDicts();
  return (
    <Prop id="prop-dict" label="选项字典">
      <Select
        id="prop-dict"
        showSearch={{ optionFilterProp: 'label' }}
        loading={dicts.isPending}
        value={field.dictCode}
        placeholder="选择字典"
        options={(dicts.data ?? []).map((d) => ({ value: d.code, label: `${d.name}（${d.code}）` }))}
        onChange={(dictCode: string) => update({ dictCode }, 'dictCode')}
      />
    </Prop>
  );
}

/** File: which files are accepted and how many. */
function FileProperties({ field, update, disabled }: GroupProps) {
  return (
    <>
      <Prop id="prop-accept" label="文件类型">
        <Select
          id="prop-accept"
          value={field.accept ?? 'any'}
          options={[
            { value: 'any', label: '任意文件' },
            { value: 'image', label: '仅图片' },
          ]}
          onChange={(accept) => update({ accept }, 'accept')}
        />
      </Prop>
      <NumberProp
        id="prop-max-files"
        label="最多文件数"
        value={field.maxFiles}
        min={1}
        precision={0}
        disabled={disabled}
        onChange={(maxFiles) => update({ maxFiles }, 'maxFiles')}
      />
    </>
  );
}

/** Group (a repeating table): the least and most rows. */
function GroupRowsProperties({ field, update, disabled }: GroupProps) {
  return (
    <Space.Compact block>
      <NumberProp
        id="prop-min-rows"
        label="最少行数"
        value={field.minRows}
        min={0}
        precision={0}
        disabled={disabled}
        onChange={(minRows) => update({ minRows }, 'minRows')}
      />
      <NumberProp
        id="prop-max-rows"
        label="最多行数"
        value={field.maxRows}
        min={1}
        precision={0}
        disabled={disabled}
        onChange={(maxRows) => update({ maxRows }, 'maxRows')}
      />
    </Space.Compact>
  );
}
