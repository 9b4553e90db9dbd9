import { useCallback, useEffect, useRef, useState } from 'react';
import {
  SCHEDULING_MESSAGES as M,
  TAG_COLOR_CHOICES,
  TAG_UPDATE_DEBOUNCE_MS,
  isSystemTagId,
  tagSchema,
} from '@studio/contracts';
import {
  App,
  Button,
  EditOutlined,
  Flex,
  Input,
  Modal,
  PlusOutlined,
  Select,
  Tag,
  Typography,
} from '@studio/ui';
import {
  createTag,
  fetchAvailableTags,
  fetchEventTags,
  renameTag,
  saveEventTags,
  type EventTag,
} from './tags.api';

const isSystem = (tag: { tag_id: string; system?: boolean }) => tag.system || isSystemTagId(tag.tag_id);

/**
 * The event's tags (spec 001 §4, §8): system tags shown but never editable nor sent; custom tags
 * added, created, renamed and removed; the event's list saved 50 ms after the last change.
 */
export function EventTags({ eventId }: { eventId: string }) {
  const { message } = App.useApp();
  const [available, setAvailable] = useState<EventTag[]>([]);
  const [tags, setTags] = useState<EventTag[]>([]);
  const [availableError, setAvailableError] = useState(false);
  const [tagsError, setTagsError] = useState(false);
  const [editing, setEditing] = useState<EventTag | 'new' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const loadAvailable = useCallback(() => {
    fetchAvailableTags()
      .then((list) => {
        setAvailable(list);
        setAvailableError(false);
      })
      .catch(() => setAvailableError(true));
  }, []);
  const loadEventTags = useCallback(() => {
    fetchEventTags(eventId)
      .then((list) => {
        setTags(list);
        setTagsError(false);
      })
      .catch(() => setTagsError(true));
  }, [eventId]);

  useEffect(() => {
    loadAvailable();
    loadEventTags();
  }, [loadAvailable, loadEventTags]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  /** Shows the change now, saves it after the debounce; a failure reloads the saved tags. */
  const change = (next: EventTag[]) => {
    setTags(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const ids = next.filter((t) => !isSystem(t)).map((t) => t.tag_id);
      saveEventTags(eventId, ids)
        .then((saved) => {
          if (!Array.isArray(saved)) {
            message.error(M.invalidTagData);
            return;
          }
          setTags(saved);
          message.success(M.tagsUpdated);
        })
        .catch((error: unknown) => {
          console.error('Could not update tags', error);
          message.error(M.tagsUpdateFailed);
          loadEventTags();
        });
    }, TAG_UPDATE_DEBOUNCE_MS);
  };

  const addable = available.filter((t) => !isSystem(t) && !tags.some((on) => on.tag_id === t.tag_id));

  const saveEdited = async (name: string, color: string) => {
    if (editing === 'new') {
      try {
        const created = await createTag(name, color);
        setEditing(null);
        if (!created?.tag_id) {
          message.error(M.tagCreatedInvalidId);
          return;
        }
        const tag: EventTag = { ...created, icon: null, system: false };
        setAvailable((list) => [...list, tag]);
        change([...tags, tag]);
      } catch (error) {
        console.error('Could not create tag', error);
        message.error(M.tagCreateFailed);
      }
      return;
    }
    if (!editing) return;
    if (isSystem(editing)) {
      message.error(M.systemTagsReadOnly);
      return;
    }
    try {
      await renameTag(editing.tag_id, name, color);
      const rename = (t: EventTag) => (t.tag_id === editing.tag_id ? { ...t, name, color } : t);
      setTags((list) => list.map(rename));
      setAvailable((list) => list.map(rename));
      setEditing(null);
      message.success(M.tagUpdated);
    } catch (error) {
      console.error('Could not update tag', error);
      message.error(M.tagUpdateFailed);
    }
  };

  return (
    <Flex vertical gap={8} aria-label="Tags" role="group">
      <Flex gap={4} wrap align="center">
        {tags.map((tag) =>
          isSystem(tag) ? (
            <Tag key={tag.tag_id} color={tag.color} data-system="true">
              {tag.name}
            </Tag>
          ) : (
            <Tag
              key={tag.tag_id}
              color={tag.color}
              closable
              closeIcon={<span aria-label={`Remove tag ${tag.name}`}>×</span>}
              onClose={(e) => {
                e.preventDefault();
                change(tags.filter((t) => t.tag_id !== tag.tag_id));
              }}
            >
              {tag.name}
              <EditOutlined
                aria-label={`Rename tag ${tag.name}`}
                style={{ marginLeft: 4, cursor: 'pointer' }}
                onClick={() => setEditing(tag)}
              />
            </Tag>
          ),
        )}
        <Select
          aria-label="Add tag"
          placeholder="Add tag"
          size="small"
          style={{ minWidth: 140 }}
          value={null}
          options={addable.map((t) => ({ value: t.tag_id, label: t.name }))}
          onChange={(id: string | null) => {
            const tag = available.find((t) => t.tag_id === id);
            if (tag) change([...tags, tag]);
          }}
        />
        <Button size="small" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          New tag
        </Button>
      </Flex>
      {tagsError ? <Typography.Text type="danger">{M.eventTagsLoadFailed}</Typography.Text> : null}
      {availableError ? <Typography.Text type="danger">{M.availableTagsLoadFailed}</Typography.Text> : null}
      {editing ? (
        <TagDialog
          tag={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSave={(name, color) => void saveEdited(name, color)}
        />
      ) : null}
    </Flex>
  );
}

function TagDialog({
  tag,
  onCancel,
  onSave,
}: {
  tag: EventTag | null;
  onCancel: () => void;
  onSave: (name: string, color: string) => void;
}) {
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState<string>(tag?.color ?? TAG_COLOR_CHOICES[0]);
  const parsed = tagSchema.safeParse({ name, color });
  const [touched, setTouched] = useState(false);
  const error = touched && !parsed.success ? parsed.error.issues[0]?.message : null;
  return (
    <Modal
      open
      title={tag ? 'Rename tag' : 'New tag'}
      okText="Save"
      onOk={() => {
        setTouched(true);
        if (parsed.success) onSave(parsed.data.name, parsed.data.color);
      }}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Flex vertical gap={8}>
        <Input
          aria-label="Tag name"
          value={name}
          status={error ? 'error' : undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <Select
          aria-label="Tag colour"
          value={color}
          onChange={setColor}
          options={TAG_COLOR_CHOICES.map((c) => ({ value: c, label: <Tag color={c}>{c}</Tag> }))}
        />
        {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      </Flex>
    </Modal>
  );
}
