export * from './antd/antd-components';
export * from './api/typed-client';
export * from './api/query-client';
export * from './api/known-missing';
export * from './query/query-error';
export * from './query/query-guard';
export * from './query/use-picker-list';
// Only the reads several remotes and the shell share; each remote owns its other keys and hooks.
export * from './queries/courses';
export * from './queries/reference-data';
export * from './queries/products';
export * from './queries/loyalty';
export * from './queries/billing';
export * from './queries/sync';
export {
  QueryClientProvider,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
export * from './api/api-error';
export * from './api/api-types';
export * from './api/session-api';
export * from './api/session-token';
export * from './drawer/drawer-types';
export * from './drawer/drawer-shell';
export * from './drawer/form-drawer';
export * from './drawer/unsaved-changes';
export * from './drawer/fullscreen-cookie';
export * from './drawer/loading-skeleton';
export * from './drawer/remote-error-boundary';
export * from './form/form-field';
export * from './form/zod-resolver';
export * from './form/server-field-errors';
export * from './form/busy';
export * from './form/date-input';
export * from './form/media-field';
export * from './form/number-input';
export * from './form/number-field';
export * from './form/labeled-switch';
export * from './form/image-file-check';
export * from './overlay/overlay-state';
export * from './overlay/overlay-context';
export * from './session/session-context';
export * from './session/use-date-format';
export * from './api/catalog-types';
export * from './api/upload-image';
export * from './api/api-download';
export * from './remote/remote-entry';
export * from './page/page-frame';
export * from './page/list-search';
export * from './page/page-registry';
export * from './page/router';
