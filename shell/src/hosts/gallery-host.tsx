import { useState } from 'react';
import { Button, Flex, Modal, Typography, useGallery, type GalleryState } from '@studio/ui';
import { useCloseOnRouteChange } from './use-close-on-route-change';

function Gallery({ images, startIndex }: GalleryState) {
  const [index, setIndex] = useState(Math.min(Math.max(startIndex, 0), Math.max(images.length - 1, 0)));
  const count = images.length;
  return (
    <Flex vertical align="center" gap={16}>
      {count ? (
        <img
          src={images[index]}
          alt={`Image ${index + 1} of ${count}`}
          style={{ maxWidth: '100%', maxHeight: '75vh' }}
        />
      ) : null}
      <Flex align="center" gap={16}>
        <Button
          aria-label="Previous image"
          disabled={count < 2}
          onClick={() => setIndex((index - 1 + count) % count)}
        >
          ‹
        </Button>
        <Typography.Text>{count ? `${index + 1} / ${count}` : '0 / 0'}</Typography.Text>
        <Button aria-label="Next image" disabled={count < 2} onClick={() => setIndex((index + 1) % count)}>
          ›
        </Button>
      </Flex>
    </Flex>
  );
}

/** The full-screen image gallery of spec 000 §2, opened on a given slide. */
export function GalleryHost() {
  const { current, close } = useGallery();
  useCloseOnRouteChange(close);
  if (!current) return null;
  return (
    <Modal
      open
      onCancel={close}
      footer={null}
      width="100%"
      style={{ top: 0, maxWidth: '100vw' }}
      title="Gallery"
    >
      <Gallery images={current.images} startIndex={current.startIndex} />
    </Modal>
  );
}
