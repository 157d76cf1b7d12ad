import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function LoginRoute() {
  return <PagePlaceholder title="Sign In" />;
}
