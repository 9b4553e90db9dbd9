export * from './messages';
export * from './ui-constants';
export * from './money';
export * from './time';
export * from './schemas/auth.schema';
export type { paths, components, operations } from './generated/api';
export * from './schemas/discount.schema';
