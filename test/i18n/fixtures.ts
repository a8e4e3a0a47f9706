// A configuration using every section of the custom XML format.
export const VALID_CONFIG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Partner portal configuration -->
<wpml-config>
  <custom-types>
    <custom-type translate="1" display-as-translated="1">partner_offer</custom-type>
    <custom-type translate="0">internal_note</custom-type>
  </custom-types>
  <taxonomies>
    <taxonomy translate="2">region</taxonomy>
  </taxonomies>
  <custom-fields>
    <custom-field action="translate" style="textarea" label="Teaser">teaser</custom-field>
    <custom-field action="copy">price_*</custom-field>
    <custom-field action="ignore">_edit_lock</custom-field>
  </custom-fields>
  <custom-term-fields>
    <custom-term-field action="translate">region_intro</custom-term-field>
  </custom-term-fields>
  <admin-texts>
    <key name="blogname"/>
    <key name="blogdescription"/>
    <key name="portal_texts">
      <key name="welcome"/>
      <key name="footer_*"/>
    </key>
  </admin-texts>
  <shortcodes>
    <shortcode>
      <tag type="line">partner_button</tag>
      <attributes>
        <attribute type="line" label="Label">label</attribute>
      </attributes>
    </shortcode>
  </shortcodes>
  <gutenberg-blocks>
    <gutenberg-block type="portal/teaser" translate="1">
      <xpath type="line">//h2</xpath>
      <key name="buttonText"/>
    </gutenberg-block>
  </gutenberg-blocks>
  <elementor-widgets>
    <widget name="portal-cta">
      <conditions><key name="widgetType">portal-cta</key></conditions>
      <fields><field type="CTA title" editor_type="LINE">title</field></fields>
    </widget>
  </elementor-widgets>
  <built-with-page-builder><![CDATA[//div[@class="elementor"] & more]]></built-with-page-builder>
</wpml-config>`;
