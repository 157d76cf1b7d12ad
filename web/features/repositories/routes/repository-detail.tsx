import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function RepositoryDetailRoute() {
  return <PagePlaceholder title="Repository Details" />;
}
