import { useEffect, useState } from 'react';
import { Skeleton } from 'antd';
import { LOADING_SKELETON_MS } from '@studio/contracts/src/ui-constants';

/** True for the first LOADING_SKELETON_MS after mount, so a fast answer does not flash (spec 000 §9). */
export function useSkeletonDelay(ms: number = LOADING_SKELETON_MS): boolean {
  const [waiting, setWaiting] = useState(ms > 0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = setTimeout(() => setWaiting(false), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return waiting;
}

export function LoadingSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div role="status" aria-label="Loading">
      <Skeleton active paragraph={{ rows }} />
    </div>
  );
}
