import type { ComponentChildren } from 'preact';

/**
 * Every page's frame: a skip link, the banner with the way back to the store, the main landmark
 * (the skip link's target) and the footer.
 */
export function Layout({
  base,
  storeName,
  children,
}: {
  /** The store's address in this app; null when there is no store to go back to. */
  base: string | null;
  /** The studio's name when the page knows it, else the link reads "All courses". */
  storeName?: string;
  children: ComponentChildren;
}) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="wrap">
          {base ? (
            <a className="brand" href={base}>
              {storeName ?? 'All courses'}
            </a>
          ) : (
            <span className="brand">Online store</span>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="wrap">
        {children}
      </main>
      <footer className="site-footer">
        <div className="wrap">
          <p>Times are shown in the time zone of each session&apos;s location. Prices are in US dollars.</p>
        </div>
      </footer>
    </>
  );
}
