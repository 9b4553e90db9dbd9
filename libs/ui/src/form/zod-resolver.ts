// Served from the shared @studio/ui so remotes do not each bundle the resolver.
export { zodResolver } from '@hookform/resolvers/zod';
