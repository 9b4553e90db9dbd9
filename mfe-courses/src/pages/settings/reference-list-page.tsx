import { useState, type FormEventHandler, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { REFERENCE_MESSAGES } from '@studio/contracts';
import {
  busy,
  App,
  Button,
  Card,
  Flex,
  Form,
  PageFrame,
  QueryFailure,
  Table,
  type QueryState,
  type TableProps,
} from '@studio/ui';

/** The texts of a settings list whose entries are added and edited in the form below it. */
export interface ReferenceListTexts {
  /** The page's heading: "Locations". */
  title: string;
  /** The failed load's title: "Could not load the locations". */
  loadFailed: string;
  /** The empty table: "No locations yet". */
  empty: string;
  /** The form's accessible name: "Location". */
  form: string;
  /** The form's card title while adding and while editing: "Add a location", "Edit location". */
  addTitle: string;
  editTitle: string;
  /** The submit button while adding and while editing: "Add location", "Save location". */
  add: string;
  save: string;
}

/** The add/edit form of a settings list: which entry it edits (null: a new one), and its actions. */
export interface ReferenceEditor<TItem> {
  editing: string | null;
  /** Edits an entry (its values in the form), or goes back to adding one (null: the empty values). */
  startEdit: (item: TItem | null) => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitting: boolean;
}

/**
 * The form of a settings list: POSTs a new entry or PUTs the one being edited, says so (or that
 * saving failed, keeping the form as it is), then goes back to adding with the empty values.
 */
export function useReferenceEditor<TItem, TInput extends FieldValues, TBody>({
  form,
  empty,
  idOf,
  toInput,
  save,
  saved,
  what,
}: {
  form: UseFormReturn<TInput, unknown, TBody>;
  /** The values of a new entry. */
  empty: TInput;
  idOf: (item: TItem) => string;
  toInput: (item: TItem) => TInput;
  /** The save mutation: `id` null adds. */
  save: { mutateAsync: (variables: { id: string | null; body: TBody }) => Promise<unknown> };
  /** The toast after a save: "Location saved". */
  saved: string;
  /** The entry, in the console when a save fails: "the location". */
  what: string;
}): ReferenceEditor<TItem> {
  const { message } = App.useApp();
  const [editing, setEditing] = useState<string | null>(null);

  const startEdit = (item: TItem | null) => {
    setEditing(item ? idOf(item) : null);
    form.reset(item ? toInput(item) : empty);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: editing, body: values });
      message.success(saved);
      startEdit(null);
    } catch (error) {
      console.error(`Saving ${what} failed`, error);
      message.error(REFERENCE_MESSAGES.saveFailed);
    }
  });

  return { editing, startEdit, onSubmit, submitting: form.formState.isSubmitting };
}

/**
 * A settings page listing one kind of entry (locations, instructors): the table, each row with Edit,
 * and below it the card with the form that adds an entry or saves the one being edited (with Cancel).
 */
export function ReferenceListPage<TItem extends object>({
  texts,
  query,
  rows,
  rowKey,
  columns,
  editLabel,
  editor,
  below,
  children,
}: {
  texts: ReferenceListTexts;
  /** The list's read: a failure shows its error with Retry above the table. */
  query: QueryState & { isLoading: boolean };
  rows: TItem[];
  rowKey: keyof TItem & string;
  /** The columns before Edit. */
  columns: NonNullable<TableProps<TItem>['columns']>;
  /** The Edit button's accessible name: "Edit 1 Main St". */
  editLabel: (item: TItem) => string;
  editor: ReferenceEditor<TItem>;
  /** Shown between the table and the form (an entry's own panel, such as an instructor's hours). */
  below?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
}) {
  const { editing, startEdit, onSubmit, submitting } = editor;
  return (
    <PageFrame title={texts.title}>
      <Flex vertical gap={16}>
        <QueryFailure query={query} title={texts.loadFailed} />
        <Table<TItem>
          loading={query.isLoading}
          rowKey={rowKey}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: texts.empty }}
          columns={[
            ...columns,
            {
              key: 'edit',
              title: '',
              render: (_, item) => (
                <Button size="small" aria-label={editLabel(item)} onClick={() => startEdit(item)}>
                  Edit
                </Button>
              ),
            },
          ]}
        />
        {below}
        <Card size="small" title={editing ? texts.editTitle : texts.addTitle}>
          <form onSubmit={onSubmit} aria-label={texts.form} noValidate>
            <Form layout="vertical" component={false}>
              {children}
              <Flex gap={8}>
                <Button type="primary" htmlType="submit" loading={busy(submitting)}>
                  {editing ? texts.save : texts.add}
                </Button>
                {editing ? <Button onClick={() => startEdit(null)}>Cancel</Button> : null}
              </Flex>
            </Form>
          </form>
        </Card>
      </Flex>
    </PageFrame>
  );
}
