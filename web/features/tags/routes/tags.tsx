import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function TagsRoute() {
  return <PagePlaceholder title="Tags" />;
}
