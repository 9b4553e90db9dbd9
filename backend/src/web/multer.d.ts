// multer ships no types, and @types/multer is written against Express's Request: the one call used.
declare module 'multer' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  interface Options {
    limits?: { fileSize?: number; files?: number; parts?: number; fields?: number };
  }
  function multer(options?: Options): { single(field: string): Middleware };
  export = multer;
}
