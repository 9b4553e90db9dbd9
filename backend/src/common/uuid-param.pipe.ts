import { Injectable, PipeTransform } from '@nestjs/common';
import { notFound } from './api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is a UUID (any version): the one test for ids from outside (paths, provider metadata). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A path id that is not a UUID names no row we have: 404, like another organization's id. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw notFound();
    return value.toLowerCase();
  }
}
