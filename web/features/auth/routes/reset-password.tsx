import { PagePlaceholder } from '../../../components/page-placeholder.tsx';

export default function ResetPasswordRoute() {
  return <PagePlaceholder title="Reset Password" />;
}
