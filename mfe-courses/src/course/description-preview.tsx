import { parseDescriptionLinks } from '@studio/contracts';
import { Typography } from '@studio/ui';

/** A field description with `[text](url)` shown as links; unsafe URLs stay plain text. */
export function DescriptionPreview({ text }: { text: string }) {
  if (!text) return null;
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="description-preview">
      {parseDescriptionLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </Typography.Paragraph>
  );
}
