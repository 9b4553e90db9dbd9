import { fireEvent, screen } from '@testing-library/dom';
import { hydrate } from 'preact';
import { act } from 'preact/test-utils';
import { App } from './app';
import { DATA_ELEMENT_ID } from './document';
import { render } from './server';
import { course } from './testing/fixtures';
import type { HydrationData } from './types';

const assets = { scripts: ['/s-assets/client.abc.js'], styles: ['/s-assets/styles.abc.css'] };
const pageUrl = `https://app.example.test/s/demo-studio/activity/${course().activity_id}`;

const page = (data = course()) =>
  render({
    page: 'course',
    data,
    base: '/s/demo-studio',
    pageUrl,
    origin: 'https://app.example.test',
    assets,
  });

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('the server render', () => {
  it('writes a whole page: lang, title, description, Open Graph, JSON-LD, assets and the content', () => {
    const doc = parse(page());
    expect(doc.documentElement.lang).toBe('en');
    expect(doc.title).toBe('Intro to Wheel Throwing');
    const meta = (key: string) =>
      doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content');
    expect(meta('description')).toBe('Center clay, pull walls and throw your first cylinders.');
    expect(meta('og:title')).toBe('Intro to Wheel Throwing');
    expect(meta('og:url')).toBe(pageUrl);
    expect(meta('og:image')).toBe('https://app.example.test/api/media/wheel-1.png');
    expect(meta('og:type')).toBe('website');
    const ld = JSON.parse(doc.querySelector('script[type="application/ld+json"]')!.textContent!);
    expect(ld).toEqual([
      expect.objectContaining({ '@type': 'Event', startDate: course().sessions[0].starts_at }),
    ]);
    expect(doc.querySelector('script[defer]')?.getAttribute('src')).toBe('/s-assets/client.abc.js');
    expect(doc.querySelector('link[rel="stylesheet"]')?.getAttribute('href')).toBe(
      '/s-assets/styles.abc.css',
    );
    // No script runs inline: only the data and the JSON-LD are script elements without a src.
    for (const script of Array.from(doc.querySelectorAll('script:not([src])')))
      expect(['application/json', 'application/ld+json']).toContain(script.getAttribute('type'));
    expect(doc.querySelector('h1')?.textContent).toContain('Intro to Wheel Throwing');
    expect(doc.body?.textContent).toContain('6:00 PM – 8:00 PM EST');
  });

  it('writes markup in a course as text, in the body, the head and the data', () => {
    const name = '</script><script>alert(1)</script>';
    const html = page(course({ name, summary: name }));
    expect(html).not.toContain('<script>alert(1)');
    const doc = parse(html);
    expect(doc.querySelectorAll('script')).toHaveLength(3);
    expect(doc.title).toBe(name);
    expect(doc.querySelector('h1')?.textContent).toBe(name);
    const data = JSON.parse(doc.getElementById(DATA_ELEMENT_ID)!.textContent!) as HydrationData;
    expect((data.data as { name: string }).name).toBe(name);
  });

  it('hydrates from its own data: the same content, then live', () => {
    const doc = parse(page());
    document.body.innerHTML = doc.body.innerHTML;
    const root = document.getElementById('app')!;
    const before = root.innerHTML;
    const data = JSON.parse(document.getElementById(DATA_ELEMENT_ID)!.textContent!) as HydrationData;
    act(() => hydrate(<App {...data} />, root));
    expect(root.innerHTML).toBe(before);
    expect(document.documentElement.dataset.hydrated).toBe('true');
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Show picture 2 of 2' }));
    });
    expect(screen.getByRole('img', { name: 'Intro to Wheel Throwing, picture 2 of 2' })).toBeInTheDocument();
  });

  it('renders the 404 page with the way back to the store when only the course is missing', () => {
    const html = render({
      page: 'not-found',
      data: { message: 'Course not found', storeFound: true },
      base: '/s/demo-studio',
      pageUrl,
      origin: 'https://app.example.test',
      assets,
    });
    const doc = parse(html);
    expect(doc.title).toBe('Page not found');
    expect(doc.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(doc.body?.textContent).toContain('Course not found.');
    expect(doc.querySelector('a[href="/s/demo-studio"]')).not.toBeNull();
  });
});
