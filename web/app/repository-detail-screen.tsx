import { RepositoryEventsCard } from '../features/activity/components/repository-events-card.tsx';
import RepositoryDetailRoute, {
  type RepositoryDetailSlots,
} from '../features/repositories/routes/repository-detail.tsx';

/** The activity card beside the metadata (docs/product.md#repository-detail). */
const slots: RepositoryDetailSlots = {
  aside: (repository) => <RepositoryEventsCard fullName={repository.id} />,
};

/** The repository detail screen as the route table serves it: the repositories feature's page with the activity feature's card. */
export default function RepositoryDetailScreen() {
  return <RepositoryDetailRoute slots={slots} />;
}
