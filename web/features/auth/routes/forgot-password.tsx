import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function ForgotPasswordRoute() {
  return <PagePlaceholder title="Forgot Password" />;
}
