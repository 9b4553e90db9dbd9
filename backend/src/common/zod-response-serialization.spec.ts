import { StreamableFile } from '@nestjs/common';
import { ZodSerializationException, ZodSerializerDto } from 'nestjs-zod';
import { z } from 'zod';
import { createZodDto } from './zod-dto';
import { serializeResponse, ZOD_SERIALIZER_DTO_KEY } from './zod-response-serialization';

class ItemDto extends createZodDto(z.object({ id: z.string(), total: z.number().int() })) {}

describe('serializeResponse (what the global ZodSerializerInterceptor did)', () => {
  it('answers the parsed value: unknown fields are dropped', () => {
    expect(serializeResponse({ id: 'a', total: 3, secret: 'x' }, ItemDto)).toEqual({ id: 'a', total: 3 });
  });

  it('parses each item of an array DTO', () => {
    expect(serializeResponse([{ id: 'a', total: 1, extra: true }], [ItemDto])).toEqual([{ id: 'a', total: 1 }]);
  });

  it('throws ZodSerializationException when the answer does not match its schema (the error filter makes it a 500)', () => {
    expect(() => serializeResponse({ id: 'a', total: 1.5 }, ItemDto)).toThrow(ZodSerializationException);
  });

  it('leaves a streamed file alone', () => {
    const file = new StreamableFile(Buffer.from('x'));
    expect(serializeResponse(file, ItemDto)).toBe(file);
  });

  it("reads the DTO where nestjs-zod's decorator puts it", () => {
    class C {
      @ZodSerializerDto(ItemDto)
      handler() {
        return null;
      }
    }
    expect(Reflect.getMetadata(ZOD_SERIALIZER_DTO_KEY, C.prototype.handler)).toBe(ItemDto);
  });
});
