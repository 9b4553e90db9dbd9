import { useEffect, useState, type CSSProperties, type Dispatch, type SetStateAction } from 'react';
import { Input } from '../antd/antd-components';

/** The search box waits this long after the last keystroke before asking the server. */
export const LIST_SEARCH_DEBOUNCE_MS = 300;

/** What a server-paged list asks for: the search and the page, among its other parts. */
interface SearchedList {
  search: string;
  page: number;
}

export interface ListSearchState {
  /** The text in the box, as typed. */
  text: string;
  setText: (text: string) => void;
  /** Searches now (Enter, the search button, clearing). */
  submit: (value: string) => void;
}

/**
 * The search of a server-paged list: typing searches after a pause, Enter at once, both from the
 * first page. The list's query state stays the page's; this holds only the text being typed.
 */
export function useListSearch<Q extends SearchedList>(
  setQuery: Dispatch<SetStateAction<Q>>,
): ListSearchState {
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(
      () => setQuery((q) => (q.search === text.trim() ? q : { ...q, search: text.trim(), page: 1 })),
      LIST_SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, setQuery]);
  const submit = (value: string) => setQuery((q) => ({ ...q, search: value.trim(), page: 1 }));
  return { text, setText, submit };
}

const LIST_SEARCH_STYLE: CSSProperties = { maxWidth: 360, marginBottom: 16 };

/** The search box above a list, driven by useListSearch. */
export function ListSearch({
  search,
  label,
  placeholder,
  style = LIST_SEARCH_STYLE,
}: {
  search: ListSearchState;
  /** The box's accessible name ("Search courses"). */
  label: string;
  placeholder: string;
  style?: CSSProperties;
}) {
  return (
    <Input.Search
      aria-label={label}
      placeholder={placeholder}
      allowClear
      value={search.text}
      onChange={(event) => search.setText(event.target.value)}
      onSearch={search.submit}
      style={style}
    />
  );
}

/** A list's count under its table: "1 course", "12 courses". */
export function countText(noun: string): (total: number) => string {
  return (total) => `${total} ${noun}${total === 1 ? '' : 's'}`;
}

/** An empty list's text: nothing matches the search, or there is nothing yet. */
export function emptyListText(noun: string, search: string, failed = false): string {
  // A list that could not load is not empty: the error with Retry above it says what happened.
  if (failed) return `The ${noun}s could not be loaded.`;
  return search ? `No ${noun}s match “${search}”` : `No ${noun}s yet`;
}

/**
 * A server-paged list's pagination: the page shown, its size and the server's total, the count in
 * words under the table, no size changer; `onChange` when the page's table does not take the page
 * from its own onChange.
 */
export function listPagination(
  noun: string,
  page: { current: number; pageSize: number; total: number },
  onChange?: (page: number) => void,
) {
  return { ...page, showSizeChanger: false, showTotal: countText(noun), ...(onChange ? { onChange } : {}) };
}

const THUMBNAIL_STYLE: CSSProperties = { width: 56, height: 42, objectFit: 'cover', borderRadius: 4 };

/** A list's first column: the row's picture as a small thumbnail (decorative: the name says it), or nothing. */
export function thumbnailColumn<T>(image: (row: T) => string | null | undefined) {
  return {
    key: 'image',
    title: '',
    width: 72,
    render: (_: unknown, row: T) => {
      const src = image(row);
      return src ? <img src={src} alt="" style={THUMBNAIL_STYLE} /> : null;
    },
  };
}
