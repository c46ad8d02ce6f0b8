import { useMemo, useState } from 'react';
import { Button, Table } from 'antd';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { LineChart } from 'echarts/charts';
import { GridComponent, MarkAreaComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import type { TrendPoint, TrendSeries } from '../hooks/trends';

// Only what these charts draw (tree-shaken: no full echarts bundle).
echarts.use([LineChart, GridComponent, TooltipComponent, MarkAreaComponent, CanvasRenderer]);

type TooltipParam = { data: { value: [string, number]; point: TrendPoint } };

/** The ECharts option of one series: a line over time, the normal range as a band. */
export function trendOption(series: TrendSeries) {
  const unit = series.unit ? ` ${series.unit}` : '';
  const band =
    series.normalLow !== undefined || series.normalHigh !== undefined
      ? {
          silent: true,
          itemStyle: { color: 'rgba(82, 196, 26, 0.12)' },
          label: { show: true, position: 'insideTopRight', color: '#389e0d', formatter: '正常范围' },
          data: [[{ yAxis: series.normalLow ?? 'min' }, { yAxis: series.normalHigh ?? 'max' }]],
        }
      : undefined;
  return {
    animation: false,
    grid: { left: 48, right: 24, top: 24, bottom: 32 },
    tooltip: {
      trigger: 'item',
      formatter: (param: TooltipParam) =>
        `${param.data.point.at.replace('T', ' ')}${param.data.point.where ? `（${param.data.point.where}）` : ''}<br/>${
          series.label
        }：<b>${param.data.point.value}${unit}</b>`,
    },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: series.unit ?? '', scale: true },
    series: [
      {
        type: 'line',
        name: series.label,
        showSymbol: true,
        symbolSize: 7,
        data: series.points.map((p) => ({ value: [p.at, p.value], point: p })),
        ...(band ? { markArea: band } : {}),
      },
    ],
  };
}

/** One field's trend: the chart, and its numbers as a table on demand (readable without the picture). */
export function TrendChart({ series }: { series: TrendSeries }) {
  const option = useMemo(() => trendOption(series), [series]);
  const [table, setTable] = useState(false);
  return (
    <div>
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        className="trend-chart"
        aria-label={`${series.label}趋势图`}
      />
      <Button type="link" size="small" onClick={() => setTable((v) => !v)} style={{ paddingInline: 0 }}>
        {table ? '收起数据' : '查看数据'}
      </Button>
      {table && <TrendTable series={series} />}
    </div>
  );
}

export function TrendTable({ series }: { series: TrendSeries }) {
  return (
    <Table
      size="small"
      pagination={false}
      rowKey={(p) => `${p.recordId ?? ''}-${p.where}-${p.at}`}
      dataSource={series.points}
      aria-label={`${series.label}数据`}
      columns={[
        { title: series.dateLabel ?? '记录日期', dataIndex: 'at', render: (at: string) => at.replace('T', ' ') },
        { title: '来源', dataIndex: 'where' },
        {
          title: `${series.label}${series.unit ? `（${series.unit}）` : ''}`,
          dataIndex: 'value',
        },
      ]}
    />
  );
}

export default TrendChart;
