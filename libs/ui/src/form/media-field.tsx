import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { IMAGE_MIME_TYPES, MAX_COURSE_IMAGES } from '@studio/contracts/src/catalog/catalog-constants';
import { Button, Flex, Typography } from '../antd/antd-components';
import { uploadImage } from '../api/upload-image';
import { imageFileRefusal } from './image-file-check';

interface MediaFieldProps {
  value: string[];
  /** The new list after an upload, a move or a removal. */
  onChange: (images: string[]) => void;
  /** What the images show, in their names: "Course" gives "Course images", "Course image 1" and the test id "course-image-input". */
  subject?: string;
}

/**
 * Course and product images: upload (PNG/JPEG/GIF, at most 4.5 MB, up to 10), reorder and remove. A failed
 * upload shows no message (spec 000 §8) and adds nothing, so no broken image reaches the list.
 */
export function MediaField({ value, onChange, subject = 'Course' }: MediaFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(0);
  // Files refused before uploading, each with why (too large, not an image).
  const [refused, setRefused] = useState<string[]>([]);
  // Several files upload at once; each success appends to the latest list, not a stale copy.
  // Synced only when the parent's list changes: a re-render with old props must not roll it back.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const full = value.length + uploading >= MAX_COURSE_IMAGES;

  const upload = async (file: File) => {
    setUploading((n) => n + 1);
    try {
      const { url } = await uploadImage(file);
      if (latest.current.length < MAX_COURSE_IMAGES) {
        latest.current = [...latest.current, url];
        onChange(latest.current);
      }
    } catch (error) {
      console.error('Image upload failed', error);
    } finally {
      setUploading((n) => n - 1);
    }
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const room = MAX_COURSE_IMAGES - value.length - uploading;
    const picked = Array.from(event.target.files ?? []);
    event.target.value = '';
    const reasons = picked.map(imageFileRefusal).filter((r): r is string => r !== null);
    setRefused(reasons);
    const files = picked.filter((file) => imageFileRefusal(file) === null).slice(0, Math.max(room, 0));
    files.forEach((file) => void upload(file));
  };

  const move = (from: number, to: number) => {
    const next = [...value];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved);
    onChange(next);
  };

  return (
    <Flex vertical gap={8}>
      <Flex wrap gap={8} role="list" aria-label={`${subject} images`}>
        {value.map((url, index) => (
          <Flex key={url} vertical gap={4} role="listitem" style={{ width: 120 }}>
            <img
              src={url}
              alt={`${subject} image ${index + 1}`}
              style={{ width: 120, height: 90, objectFit: 'cover', borderRadius: 6 }}
            />
            <Flex gap={2} justify="space-between">
              <Button
                size="small"
                aria-label={`Move image ${index + 1} left`}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              >
                ←
              </Button>
              <Button
                size="small"
                aria-label={`Move image ${index + 1} right`}
                disabled={index === value.length - 1}
                onClick={() => move(index, index + 1)}
              >
                →
              </Button>
              <Button
                size="small"
                danger
                aria-label={`Remove image ${index + 1}`}
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              >
                ✕
              </Button>
            </Flex>
          </Flex>
        ))}
      </Flex>
      <input
        ref={input}
        type="file"
        accept={IMAGE_MIME_TYPES.join(',')}
        multiple
        hidden
        aria-label="Upload images"
        data-testid={`${subject.toLowerCase()}-image-input`}
        onChange={pick}
      />
      <Flex gap={8} align="center">
        <Button onClick={() => input.current?.click()} disabled={full} loading={uploading > 0}>
          Upload image
        </Button>
        <Typography.Text type="secondary">
          PNG, JPEG or GIF, up to 4.5 MB each, at most {MAX_COURSE_IMAGES} images.
        </Typography.Text>
      </Flex>
      {refused.map((reason) => (
        <Typography.Text key={reason} type="danger" role="alert">
          {reason}
        </Typography.Text>
      ))}
    </Flex>
  );
}
