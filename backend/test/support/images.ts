import { gradientPng } from '../../src/seed/demo-images';

/** A real 1x1 PNG from the seed's PNG writer, so tests need no fixture files. */
export const tinyPng = (): Buffer => gradientPng(1, 1, [200, 120, 80], [200, 120, 80]);

export const tinyGif = () => Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
export const tinyJpeg = () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
