import './csp-setup';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { applyPageBase } from './app/page-base';

applyPageBase();
createRoot(document.getElementById('root') as HTMLElement).render(<AppRoot />);
