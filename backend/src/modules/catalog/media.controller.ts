import { Controller, Get, HttpCode, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiOperation, ApiPayloadTooLargeResponse, ApiTags, ApiUnsupportedMediaTypeResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SingleFileInterceptor } from '../../web/file-upload.interceptor';
import { ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { notFound } from '../../common/api-error';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { UploadOutDto } from './catalog.dto';
import { MediaService, UPLOAD_MESSAGES } from './media.service';
import { DOCUMENT_UPLOAD_MESSAGES as D } from '@studio/contracts';
import { ApiInvalidUpload } from '../../common/api-errors';

/** The path of a stored image: the owning organization's id, then the image's id and extension. */
const mediaPathSchema = z.object({
  org: z.uuid(),
  file: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5}$/i),
});

/** Multer's own cap, above the 4.5 MB rule, so the rule's message is ours. */
const HARD_LIMIT_BYTES = 10 * 1024 * 1024;

@ApiTags('media')
@Controller()
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Post('admin/upload')
  @Auth()
  @HttpCode(200)
  @UseInterceptors(SingleFileInterceptor('file', { fileSize: HARD_LIMIT_BYTES, files: 1 }))
  @ApiOperation({ summary: 'Upload an image (PNG, JPEG or GIF judged by its bytes, at most 4.5 MB)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ZodResponse({ status: 200, type: UploadOutDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorBodyDto })
  @ApiInvalidUpload()
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto })
  async upload(@Ctx() ctx: RequestContext, @UploadedFile() file: { buffer: Buffer; size: number; originalname: string } | undefined) {
    const media = await this.media.upload(ctx, file);
    return { id: media.id, url: media.url };
  }

  @Post('admin/upload/document')
  @Auth()
  @HttpCode(200)
  @UseInterceptors(SingleFileInterceptor('file', { fileSize: HARD_LIMIT_BYTES, files: 1 }))
  @ApiOperation({ summary: "Upload a waiver's PDF document (judged by its bytes, at most 8 MB); answers its url for document_url" })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ZodResponse({ status: 200, type: UploadOutDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorBodyDto, description: D.type })
  @ApiInvalidUpload()
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto, description: D.size })
  async uploadDocument(@Ctx() ctx: RequestContext, @UploadedFile() file: { buffer: Buffer; size: number; originalname: string } | undefined) {
    const media = await this.media.uploadDocument(ctx, file);
    return { id: media.id, url: media.url };
  }

  @Get('media/:org/:file')
  @ApiOperation({ summary: 'An uploaded image (public: course pages show it)', security: [] })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'application/pdf')
  @ApiOkResponse({ description: 'The image bytes', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async serve(@Param('org') org: string, @Param('file') file: string, @Res() res: FastifyReply) {
    // A path that no upload can have names no image: 404 before any lookup.
    const path = mediaPathSchema.safeParse({ org, file });
    if (!path.success) throw notFound(UPLOAD_MESSAGES.imageNotFound);
    const found = await this.media.open(`${path.data.org}/${path.data.file}`);
    if (!found) throw notFound(UPLOAD_MESSAGES.imageNotFound);
    res.header('Content-Type', found.media.contentType);
    res.header('Content-Length', String(found.media.byteSize));
    res.header('Cache-Control', 'public, max-age=31536000, immutable');
    res.header('X-Content-Type-Options', 'nosniff');
    // A document is shown by the browser's viewer, never able to run as part of this site.
    if (found.media.contentType === 'application/pdf') res.header('Content-Security-Policy', 'sandbox');
    void res.send(found.stream);
  }
}
