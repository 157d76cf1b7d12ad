import { Tooltip, type TooltipProps } from '@mantine/core';

/** The colour-scheme toggle's tooltip, loaded when the pointer or focus first reaches it. */
export default function ColorSchemeTooltip(props: TooltipProps) {
  return <Tooltip {...props} />;
}
