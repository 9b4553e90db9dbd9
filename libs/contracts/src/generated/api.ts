export type paths = Record<string, never>; export type components = Record<string, never>;
