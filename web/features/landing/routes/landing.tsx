import { BenefitsSection } from '../components/benefits-section.tsx';
import { CallToAction } from '../components/call-to-action.tsx';
import { FeaturesSection } from '../components/features-section.tsx';
import { HeroSection } from '../components/hero-section.tsx';
import { LandingFooter } from '../components/landing-footer.tsx';

/** What an anonymous visitor sees at `/` and at any unknown path. */
export default function LandingRoute() {
  return (
    <>
      <HeroSection />
      <FeaturesSection />
      <BenefitsSection />
      <CallToAction />
      <LandingFooter />
    </>
  );
}
