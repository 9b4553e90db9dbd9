import { useEffect, useState } from 'react';
import { Button, CopyOutlined, Input, Space } from '@studio/ui';

const COPIED_MS = 2000;

/** A read-only link with a copy button that says 'Copied!' for 2 seconds (spec 001 §2, §9). */
export function CopyLinkBox({ link, label }: { link: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch (error) {
      console.error('Copy failed', error);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input readOnly value={link} aria-label={label} />
      <Button icon={<CopyOutlined />} onClick={() => void copy()} disabled={!link}>
        {copied ? 'Copied!' : 'Copy'}
      </Button>
    </Space.Compact>
  );
}
