import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';

createRoot(document.getElementById('root') as HTMLElement).render(<AppRoot />);
