/** What the first load shows while the session or the admin area arrives; antd's Skeleton loads later. */
export function PageLoading() {
  return (
    <div
      role="status"
      aria-label="Loading"
      style={{ minHeight: '100vh', boxSizing: 'border-box', padding: 48, color: '#8c8c8c', fontSize: 14 }}
    >
      Loading…
    </div>
  );
}
