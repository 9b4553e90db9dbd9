/**
 * The router as the remotes' pages use it: the shell's one instance (its location, params and
 * navigation), reached through @studio/ui, the shared singleton. Only what pages need is here, so
 * the shell's copy of react-router keeps its tree shaking.
 */
export { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
