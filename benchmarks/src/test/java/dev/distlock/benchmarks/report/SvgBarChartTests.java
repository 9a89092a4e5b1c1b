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

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link SvgBarChart}.
 *
 * @author distlock
 */
class SvgBarChartTests {

	@Test
	void rendersAWellFormedSvgDocument() throws Exception {
		Document svg = parse(new SvgBarChart("Throughput <ops> & more", "ops/s", List.of("throughput"))
			.row("floor (Lettuce SET NX PX + EVALSHA)", 1592)
			.row("distlock", 1485)
			.render());
		Element root = svg.getDocumentElement();
		assertThat(root.getLocalName()).isEqualTo("svg");
		assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
		assertThat(root.getElementsByTagNameNS("*", "title").item(0).getTextContent())
			.isEqualTo("Throughput <ops> & more");
		assertThat(bars(svg)).hasSize(2);
	}

	@Test
	void barsAreProportionalToTheirValues() throws Exception {
		Document svg = parse(new SvgBarChart("Waits", "ms", List.of("p50", "p99")).row("a", 10, 40)
			.row("b", 20, 5)
			.row("c", 0, 30)
			.render());
		List<Element> bars = bars(svg);
		assertThat(bars).hasSize(6);
		double longest = width(bars.get(1));
		assertThat(longest).isGreaterThan(100);
		double[] values = { 10, 40, 20, 5, 0, 30 };
		for (int i = 0; i < values.length; i++) {
			assertThat(Double.parseDouble(bars.get(i).getAttribute("data-value"))).isEqualTo(values[i]);
			assertThat(width(bars.get(i))).as("bar %d", i).isCloseTo(longest * values[i] / 40, within(0.1));
		}
	}

	@Test
	void refusesRowsThatDoNotFitTheSeries() {
		SvgBarChart chart = new SvgBarChart("Waits", "ms", List.of("p50", "p99"));
		assertThatIllegalArgumentException().isThrownBy(() -> chart.row("a", 1));
		assertThatIllegalArgumentException().isThrownBy(() -> chart.row("a", 1, -2));
		assertThatIllegalArgumentException().isThrownBy(() -> chart.row("a", 1, Double.NaN));
		assertThatIllegalArgumentException().isThrownBy(() -> new SvgBarChart("None", "ms", List.of()));
	}

	static Document parse(String svg) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setNamespaceAware(true);
		return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
	}

	static List<Element> bars(Document svg) {
		NodeList rects = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
		List<Element> bars = new ArrayList<>();
		for (int i = 0; i < rects.getLength(); i++) {
			Element rect = (Element) rects.item(i);
			if ("bar".equals(rect.getAttribute("class"))) {
				bars.add(rect);
			}
		}
		return bars;
	}

	private static double width(Element bar) {
		return Double.parseDouble(bar.getAttribute("width"));
	}

}
