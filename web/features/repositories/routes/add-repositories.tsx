import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function AddRepositoriesRoute() {
  return <PagePlaceholder title="Add Repositories" />;
}
