import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function RepositoryListRoute() {
  return <PagePlaceholder title="Repositories" />;
}
