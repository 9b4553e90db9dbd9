import { hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { DATA_ELEMENT_ID } from './document';
import './styles.css';
import type { HydrationData } from './types';

/** Hydrates the server-rendered page from the data it was rendered with. */
const element = document.getElementById(DATA_ELEMENT_ID);
const root = document.getElementById('app');
if (element && root) {
  const hydration = JSON.parse(element.textContent ?? '{}') as HydrationData;
  hydrateRoot(root, <App {...hydration} />);
}
