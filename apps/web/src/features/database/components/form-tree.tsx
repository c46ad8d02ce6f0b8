import { memo, useMemo, useState, type ReactNode } from 'react';
import {
  Button,
  Dropdown,
  Empty,
  Space,
  Tag,
  Tree,
  Typography,
  type MenuProps,
  type TreeDataNode,
  type TreeProps,
} from 'antd';
import { FileTextOutlined, FolderOutlined, MoreOutlined, PlusOutlined } from '@ant-design/icons';
import type { CategoryDefinition, Definition, FormDefinition } from '@registry/shared/forms/definition';
import { useFeedback } from '../../../components/feedback/feedback-context';
import { collectKeys, countFields, findCategoryOfForm, findForm, nextKey, ops } from '../hooks/definition-ops';
import { useDesignerContext } from '../hooks/designer-context';
import { useDesignerStore } from '../hooks/use-designer-store';
import { NameKeyDialog, type NameKeyValues } from './name-key-dialog';

type Dialog =
  | { kind: 'add-category' }
  | { kind: 'rename-category'; category: CategoryDefinition }
  | { kind: 'add-form'; categoryKey: string }
  | { kind: 'rename-form'; form: FormDefinition }
  | null;

type NodeInfo = { type: 'category' | 'form'; key: string; readOnly: boolean };

const CAT = 'cat:';
const FORM = 'form:';
const PARENT = 'parent:';

function nodeInfo(key: string): NodeInfo {
  const readOnly = key.startsWith(PARENT);
  const rest = readOnly ? key.slice(PARENT.length) : key;
  return rest.startsWith(CAT)
    ? { type: 'category', key: rest.slice(CAT.length), readOnly }
    : { type: 'form', key: rest.slice(FORM.length), readOnly };
}

function visibleForms(category: CategoryDefinition, followUp: boolean): FormDefinition[] {
  return category.forms.filter((f) => Boolean(f.followUp) === followUp);
}

/** What the tree shows of a definition, as one string (compared by value between edits). */
function treeShape(definition: Definition): string {
  return definition.categories
    .map(
      (c) =>
        `${c.key}\u0001${c.title}\u0001${c.forms
          .map((f) => `${f.key}\u0003${f.title}\u0003${f.followUp ? 1 : 0}${f.repeating ? 1 : 0}`)
          .join('\u0002')}`,
    )
    .join('\u0004');
}

/** The tree of categories → forms: add, rename, delete, mark follow-up / repeating, drag forms between categories. */
export const FormTree = memo(function FormTree() {
  const { modal } = useFeedback();
  const { parent, parentName, followUp, publishedKeys } = useDesignerContext();
  // The tree re-renders when its shape changes (categories, forms, their names and flags), not on every field edit.
  const shape = useDesignerStore((s) => treeShape(s.definition));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the snapshot is taken again whenever the shape changes
  const definition = useMemo(() => useDesignerStore.getState().definition, [shape]);
  const selectedFormKey = useDesignerStore((s) => s.selection.formKey);
  const selection = { formKey: selectedFormKey };
  const edit = useDesignerStore((s) => s.edit);
  const selectForm = useDesignerStore((s) => s.selectForm);
  const [dialog, setDialog] = useState<Dialog>(null);
  // Categories start (and, when new, appear) expanded; the user may fold them.
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  // Keys in use, read when a dialog opens (fields added since the last shape change count too).
  const taken = dialog ? collectKeys(useDesignerStore.getState().definition, parent) : new Set<string>();

  const formActions = (form: FormDefinition): NonNullable<MenuProps['items']> => {
    const fieldCount = () => {
      const current = findForm(useDesignerStore.getState().definition, form.key);
      return current ? countFields(current) : 0;
    };
    return [
      { key: 'rename', label: '重命名', onClick: () => setDialog({ kind: 'rename-form', form }) },
      {
        key: 'followup',
        label: form.followUp ? '取消随访表单' : '标记为随访表单',
        onClick: () => edit((d) => ops.updateForm(d, form.key, { followUp: form.followUp ? undefined : true })),
      },
      {
        key: 'repeating',
        label: form.repeating ? '取消可重复' : '设为可重复表单',
        onClick: () => edit((d) => ops.updateForm(d, form.key, { repeating: form.repeating ? undefined : true })),
      },
      {
        key: 'delete',
        label: '删除',
        danger: true,
        onClick: () =>
          modal.confirm({
            title: `删除表单「${form.title}」`,
            content:
              fieldCount() > 0
                ? `该表单包含 ${fieldCount()} 个字段，删除后这些字段一并删除${publishedKeys.has(form.key) ? '，已录入的数据将在发布时提示确认' : ''}。`
                : '该表单没有字段。',
            okText: '删除',
            okButtonProps: { danger: true },
            cancelText: '取消',
            onOk: () => {
              edit((d) => ops.deleteForm(d, form.key));
              if (selection.formKey === form.key) selectForm(null);
            },
          }),
      },
    ];
  };

  const categoryActions = (category: CategoryDefinition): NonNullable<MenuProps['items']> => {
    const counts = () => {
      const current = useDesignerStore.getState().definition.categories.find((c) => c.key === category.key);
      return {
        formCount: current?.forms.length ?? 0,
        fieldCount: current?.forms.reduce((n, f) => n + countFields(f), 0) ?? 0,
      };
    };
    return [
      { key: 'add-form', label: '新增表单', onClick: () => setDialog({ kind: 'add-form', categoryKey: category.key }) },
      { key: 'rename', label: '重命名', onClick: () => setDialog({ kind: 'rename-category', category }) },
      {
        key: 'delete',
        label: '删除',
        danger: true,
        onClick: () => {
          const { formCount, fieldCount } = counts();
          modal.confirm({
            title: `删除分类「${category.title}」`,
            content:
              formCount > 0
                ? `该分类包含 ${formCount} 个表单、${fieldCount} 个字段（含随访表单），删除后一并删除。`
                : '该分类没有表单。',
            okText: '删除',
            okButtonProps: { danger: true },
            cancelText: '取消',
            onOk: () => edit((d) => ops.deleteCategory(d, category.key)),
          });
        },
      },
    ];
  };

  const title = (text: string, tags: ReactNode, actions: NonNullable<MenuProps['items']> | null, label: string) => (
    <span className="tree-node">
      <Typography.Text ellipsis className="tree-node-title">
        {text}
      </Typography.Text>
      {tags}
      {actions && (
        <span onClick={(e) => e.stopPropagation()}>
          <Dropdown trigger={['click']} menu={{ items: actions }}>
            <Button type="text" size="small" icon={<MoreOutlined />} aria-label={`${label}操作`} />
          </Dropdown>
        </span>
      )}
    </span>
  );

  // A category whose forms are all of the other kind (follow-up or not) is not shown; an empty one is.
  const shown = (category: CategoryDefinition) =>
    category.forms.length === 0 || visibleForms(category, followUp).length > 0;
  const build = (source: Definition, readOnly: boolean): TreeDataNode[] =>
    source.categories.filter(shown).map((category) => ({
      key: `${readOnly ? PARENT : ''}${CAT}${category.key}`,
      icon: <FolderOutlined />,
      selectable: false,
      className: readOnly ? 'tree-readonly' : undefined,
      title: title(
        category.title,
        readOnly ? <Tag>主项目</Tag> : null,
        readOnly ? null : categoryActions(category),
        `分类 ${category.title}`,
      ),
      children: visibleForms(category, followUp).map((form) => ({
        key: `${readOnly ? PARENT : ''}${FORM}${form.key}`,
        icon: <FileTextOutlined />,
        isLeaf: true,
        className: readOnly ? 'tree-readonly' : undefined,
        title: title(
          form.title,
          <>
            {readOnly && <Tag>主项目</Tag>}
            {form.followUp && <Tag color="green">随访</Tag>}
            {form.repeating && <Tag color="blue">可重复</Tag>}
          </>,
          readOnly ? null : formActions(form),
          `表单 ${form.title}`,
        ),
      })),
    }));

  const treeData = [...(parent ? build(parent, true) : []), ...build(definition, false)];
  const expandedKeys = treeData.map((n) => String(n.key)).filter((key) => !collapsed.has(key));
  const selectedKey = selection.formKey
    ? [
        findCategoryOfForm(definition, selection.formKey)
          ? `${FORM}${selection.formKey}`
          : `${PARENT}${FORM}${selection.formKey}`,
      ]
    : [];

  const allowDrop: TreeProps['allowDrop'] = ({ dragNode, dropNode, dropPosition }) => {
    const drag = nodeInfo(String(dragNode.key));
    const drop = nodeInfo(String(dropNode.key));
    if (drag.readOnly || drop.readOnly) return false;
    if (drag.type === 'category') return drop.type === 'category' && dropPosition !== 0;
    return drop.type === 'form' ? dropPosition !== 0 : dropPosition === 0;
  };

  const onDrop: TreeProps['onDrop'] = (info) => {
    const drag = nodeInfo(String(info.dragNode.key));
    const drop = nodeInfo(String(info.node.key));
    const pos = info.node.pos.split('-');
    const relative = info.dropPosition - Number(pos[pos.length - 1]);
    if (drag.readOnly || drop.readOnly) return;
    if (drag.type === 'category' && drop.type === 'category') {
      edit((d) => {
        const without = d.categories.filter((c) => c.key !== drag.key);
        const at = without.findIndex((c) => c.key === drop.key);
        return ops.moveCategory(d, drag.key, at + (relative > 0 ? 1 : 0));
      });
      return;
    }
    if (drag.type !== 'form') return;
    if (drop.type === 'category' && !info.dropToGap) {
      edit((d) => ops.moveForm(d, drag.key, drop.key, Number.MAX_SAFE_INTEGER));
      return;
    }
    if (drop.type === 'form') {
      edit((d) => {
        const category = findCategoryOfForm(d, drop.key);
        if (!category) return d;
        const without = category.forms.filter((f) => f.key !== drag.key);
        const at = without.findIndex((f) => f.key === drop.key);
        return ops.moveForm(d, drag.key, category.key, at + (relative > 0 ? 1 : 0));
      });
    }
  };

  const submit = (values: NameKeyValues) => {
    const current = dialog;
    setDialog(null);
    if (!current) return;
    if (current.kind === 'add-category') edit((d) => ops.addCategory(d, values));
    if (current.kind === 'rename-category') edit((d) => ops.updateCategory(d, current.category.key, values));
    if (current.kind === 'add-form') {
      edit((d) =>
        ops.addForm(d, current.categoryKey, {
          key: values.key,
          title: values.title,
          fields: [],
          ...(followUp ? { followUp: true } : {}),
        }),
      );
      selectForm(values.key);
    }
    if (current.kind === 'rename-form') {
      edit((d) => ops.updateForm(d, current.form.key, values));
      if (selection.formKey === current.form.key) useDesignerStore.getState().renameSelection({ formKey: values.key });
    }
  };

  const dialogProps = (() => {
    const without = (key: string) => {
      const set = new Set(taken);
      set.delete(key);
      return set;
    };
    switch (dialog?.kind) {
      case 'add-category':
        return { title: '新增分类', nameLabel: '分类名称', initial: { title: '', key: nextKey('cat', taken) }, taken };
      case 'rename-category':
        return {
          title: '重命名分类',
          nameLabel: '分类名称',
          initial: { title: dialog.category.title, key: dialog.category.key },
          taken: without(dialog.category.key),
          keyLocked: publishedKeys.has(dialog.category.key),
        };
      case 'add-form':
        return { title: '新增表单', nameLabel: '表单名称', initial: { title: '', key: nextKey('form', taken) }, taken };
      case 'rename-form':
        return {
          title: '重命名表单',
          nameLabel: '表单名称',
          initial: { title: dialog.form.title, key: dialog.form.key },
          taken: without(dialog.form.key),
          keyLocked: publishedKeys.has(dialog.form.key),
        };
      default:
        return { title: '', nameLabel: '名称', initial: { title: '', key: '' }, taken };
    }
  })();

  return (
    <div className="form-tree">
      <div className="pane-toolbar">
        <Typography.Text strong>{followUp ? '随访表单' : '表单'}</Typography.Text>
        <Space size={4}>
          <Button size="small" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add-category' })}>
            分类
          </Button>
          <Button
            size="small"
            icon={<PlusOutlined />}
            disabled={definition.categories.length === 0}
            onClick={() => {
              const categoryKey =
                (selection.formKey && findCategoryOfForm(definition, selection.formKey)?.key) ||
                (definition.categories.find(shown) ?? definition.categories[0])?.key;
              if (categoryKey) setDialog({ kind: 'add-form', categoryKey });
            }}
          >
            表单
          </Button>
        </Space>
      </div>
      {parent && (
        <Typography.Paragraph type="secondary" className="form-tree-note">
          灰色为主项目「{parentName ?? ''}」的表单，只读；子项目可新增自己的表单。
        </Typography.Paragraph>
      )}
      {treeData.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有分类，先新增一个分类" />
      ) : (
        <Tree
          blockNode
          showIcon
          draggable={{ icon: false, nodeDraggable: (node) => !nodeInfo(String(node.key)).readOnly }}
          expandedKeys={expandedKeys}
          onExpand={(keys) => {
            const open = new Set(keys.map(String));
            setCollapsed(new Set(treeData.map((n) => String(n.key)).filter((key) => !open.has(key))));
          }}
          selectedKeys={selectedKey}
          treeData={treeData}
          allowDrop={allowDrop}
          onDrop={onDrop}
          onSelect={(keys) => {
            const key = keys[0];
            if (key === undefined) return;
            const info = nodeInfo(String(key));
            if (info.type === 'form') selectForm(info.key);
          }}
        />
      )}
      <NameKeyDialog open={dialog !== null} onCancel={() => setDialog(null)} onSubmit={submit} {...dialogProps} />
    </div>
  );
});
