/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.benchmarks.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A horizontal bar chart written as a standalone SVG document: one row per category (a
 * library), one bar per series (a figure of that library), every bar's length
 * proportional to its value on one scale that starts at zero.
 *
 * @author distlock
 * @since 0.1.0
 */
public final class SvgBarChart {

	private static final String[] COLOURS = { "#3b6ea8", "#e08a2c", "#5a9e4b", "#b04a5a" };

	private static final int WIDTH = 800;

	private static final int LABEL_WIDTH = 290;

	private static final int VALUE_WIDTH = 90;

	private static final int BAR_HEIGHT = 14;

	private static final int ROW_GAP = 8;

	private static final int TOP = 48;

	private final String title;

	private final String unit;

	private final List<String> series;

	private final List<Row> rows = new ArrayList<>();

	/**
	 * Create a new chart.
	 * @param title the title above the chart
	 * @param unit the unit of every value, shown after it ({@code "ops/s"})
	 * @param series the names of the bars of each row, in order (at most four)
	 */
	public SvgBarChart(String title, String unit, List<String> series) {
		if (series.isEmpty() || series.size() > COLOURS.length) {
			throw new IllegalArgumentException("A chart has 1 to " + COLOURS.length + " series, not " + series.size());
		}
		this.title = title;
		this.unit = unit;
		this.series = List.copyOf(series);
	}

	/**
	 * Add a row.
	 * @param label the row's label (a library)
	 * @param values one value per series, not negative
	 * @return this chart
	 */
	public SvgBarChart row(String label, double... values) {
		if (values.length != this.series.size()) {
			throw new IllegalArgumentException(
					"Row '" + label + "' has " + values.length + " values for " + this.series.size() + " series");
		}
		for (double value : values) {
			if (!(value >= 0) || Double.isInfinite(value)) {
				throw new IllegalArgumentException("Row '" + label + "' has the value " + value);
			}
		}
		this.rows.add(new Row(label, values.clone()));
		return this;
	}

	/**
	 * Return the length in pixels of a bar of the given value, the longest bar of the
	 * chart taking the whole plot width.
	 * @param value the value
	 * @return the bar's length
	 */
	double barLength(double value) {
		double max = this.rows.stream().flatMapToDouble((row) -> Arrays.stream(row.values())).max().orElse(0);
		return (max > 0) ? value / max * plotWidth() : 0;
	}

	private static int plotWidth() {
		return WIDTH - LABEL_WIDTH - VALUE_WIDTH - 20;
	}

	/**
	 * Render the chart.
	 * @return the SVG document
	 */
	public String render() {
		int rowHeight = this.series.size() * BAR_HEIGHT + ROW_GAP;
		int height = TOP + this.rows.size() * rowHeight + 16;
		StringBuilder svg = new StringBuilder();
		svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		svg.append(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
						+ "font-family=\"sans-serif\" font-size=\"12\">%n",
				WIDTH, height, WIDTH, height));
		svg.append("<title>").append(escape(this.title)).append("</title>\n");
		svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, height));
		svg.append(String.format(Locale.ROOT,
				"<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", escape(this.title)));
		int legendX = 10;
		for (int i = 0; i < this.series.size(); i++) {
			svg.append(String.format(Locale.ROOT,
					"<rect x=\"%d\" y=\"30\" width=\"10\" height=\"10\" fill=\"%s\"/>"
							+ "<text x=\"%d\" y=\"39\">%s</text>%n",
					legendX, COLOURS[i], legendX + 14, escape(this.series.get(i) + " (" + this.unit + ")")));
			legendX += 14 + 7 * (this.series.get(i).length() + this.unit.length() + 3) + 16;
		}
		int y = TOP;
		for (Row row : this.rows) {
			svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
					LABEL_WIDTH - 8, y + (this.series.size() * BAR_HEIGHT) / 2 + 4, escape(row.label())));
			for (int i = 0; i < row.values().length; i++) {
				double value = row.values()[i];
				double length = barLength(value);
				int barY = y + i * BAR_HEIGHT;
				svg.append(String.format(Locale.ROOT,
						"<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
								+ "data-value=\"%s\"><title>%s</title></rect>"
								+ "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s</text>%n",
						LABEL_WIDTH, barY, length, BAR_HEIGHT - 2, COLOURS[i],
						BigDecimal.valueOf(value).stripTrailingZeros().toPlainString(),
						escape(row.label() + ", " + this.series.get(i) + ": " + number(value) + " " + this.unit),
						LABEL_WIDTH + length + 4, barY + BAR_HEIGHT - 4, escape(number(value))));
			}
			y += rowHeight;
		}
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888888\"/>%n",
				LABEL_WIDTH, TOP - 4, LABEL_WIDTH, y - ROW_GAP + 4));
		svg.append("</svg>\n");
		return svg.toString();
	}

	private static String number(double value) {
		if (value >= 100) {
			return String.format(Locale.ROOT, "%,.0f", value);
		}
		return String.format(Locale.ROOT, "%.1f", value);
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

	private record Row(String label, double[] values) {
	}

}
