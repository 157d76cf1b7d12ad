import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';

// The tooltip (Mantine's Tooltip and floating-ui) is requested when the pointer or focus first
// reaches the button, not with the first screen (docs/architecture.md#web-app). It is a sibling
// pointed at the button, so the button is never remounted (focus stays), and its opening is held
// here, so it shows although it arrives after the pointer.
const Tooltip = lazy(() => import('./color-scheme-tooltip.tsx'));

/** Follows the system until first used; from then on the choice is stored. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const button = useRef<HTMLButtonElement>(null);
  const [hinted, setHinted] = useState(false);
  const [opened, setOpened] = useState(false);
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} mode`;
  const show = () => {
    setHinted(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);

  return (
    <>
      <ActionIcon
        ref={button}
        variant="default"
        size="lg"
        aria-label={label}
        onClick={() => setColorScheme(next)}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
      >
        {computed === 'dark' ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
      </ActionIcon>
      {hinted && (
        <Suspense fallback={null}>
          <Tooltip label={label} opened={opened} target={button} />
        </Suspense>
      )}
    </>
  );
}
