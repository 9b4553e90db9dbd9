import { Controller, Get, HttpCode, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiOperation, ApiPayloadTooLargeResponse, ApiTags, ApiUnsupportedMediaTypeResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ZodResponse } from 'nestjs-zod';
import { notFound } from '../../common/api-error';
import { ErrorBodyDto } from '../../common/error-body.dto';
import { Ctx, RequestContext } from '../../common/request-context';
import { Auth } from '../identity/auth.guard';
import { UploadOutDto } from './catalog.dto';
import { MediaService } from './media.service';

/** Multer's own cap, above the 4.5 MB rule, so the rule's message is ours. */
const HARD_LIMIT_BYTES = 10 * 1024 * 1024;

@ApiTags('media')
@Controller()
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Post('admin/upload')
  @Auth()
  @HttpCode(200)
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: HARD_LIMIT_BYTES, files: 1 } }))
  @ApiOperation({ summary: 'Upload an image (PNG, JPEG or GIF judged by its bytes, at most 4.5 MB)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ZodResponse({ status: 200, type: UploadOutDto })
  @ApiUnsupportedMediaTypeResponse({ type: ErrorBodyDto })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto })
  async upload(@Ctx() ctx: RequestContext, @UploadedFile() file: { buffer: Buffer; size: number; originalname: string } | undefined) {
    const media = await this.media.upload(ctx, file);
    return { id: media.id, url: media.url };
  }

  @Get('media/:org/:file')
  @ApiOperation({ summary: 'An uploaded image (public: course pages show it)' })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif')
  @ApiOkResponse({ description: 'The image bytes', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiNotFoundResponse({ type: ErrorBodyDto })
  async serve(@Param('org') org: string, @Param('file') file: string, @Res() res: Response) {
    const found = await this.media.open(`${org}/${file}`);
    if (!found) throw notFound('Image not found');
    res.setHeader('Content-Type', found.media.contentType);
    res.setHeader('Content-Length', String(found.media.byteSize));
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    found.stream.pipe(res);
  }
}
