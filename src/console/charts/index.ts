/** General chart components (visx): pie, bar and line, titled, accessible, themed. Import only from lazy screens. */
export { PieChart, type PieChartProps, type PieSlice } from './PieChart';
export { BarChart, type BarChartProps, type ChartSeries } from './BarChart';
export { LineChart, type LineChartProps } from './LineChart';
export { type ChartStatus, DEFAULT_EMPTY, FAILED_MESSAGE, KEYBOARD_HINT } from './ChartFigure';
export { formatCount, formatMoney, formatCompact, percentOf, shorten, type ValueFormat } from './format';
export { seriesColour } from './theme';
